// The portal's own words (PRODUCT.md §7): catalogs in src/i18n/catalogs/{locale}.json (ICU
// messages by id), compiled by `npm run i18n` into src/i18n/catalogs/{locale}.ts (git-ignored), which the build,
// the tests and the type check import. A message missing from a language falls back to English at
// compile time: the portal never shows a message id.
const { formatter } = require('@lingui/format-json')

/** @type {import('@lingui/conf').LinguiConfig} */
module.exports = {
  sourceLocale: 'en',
  locales: ['en', 'de', 'fr', 'es'],
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: '<rootDir>/src/i18n/catalogs/{locale}', include: ['<rootDir>/src'] }],
  format: formatter({ style: 'minimal' }),
  compileNamespace: 'ts',
}
