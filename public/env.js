// Runtime settings of this deployment (docs/rules.md §2.1). Empty URLs mean "the same origin".
// Replace this file to point the built portal at other hosts; no rebuild is needed.
window.PORTAL_ENV = {
  configUrl: '',
  apiUrl: '',
  defaultSubdomain: 'demo',
}
