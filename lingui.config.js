// The portal's own words (docs/rules.md §16.2), in ICU messages by id, in two catalogs per language:
// - start/{locale}.json: the start screen and the frame (shell, banners, errors), always needed;
// - flow/{locale}.json: the later steps' words, loaded with the first later step's chunk.
// And server/src/email/catalogs/{locale}.json: the e-mails' words.
// `npm run i18n` compiles them into {locale}.ts beside each file (git-ignored), which the build,
// the tests and the type check import. A message missing from a language falls back to English at
// compile time: the portal never shows a message id.
const { formatter } = require('@lingui/format-json')

/** @type {import('@lingui/conf').LinguiConfig} */
module.exports = {
  sourceLocale: 'en',
  locales: ['en', 'de', 'fr', 'es'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    { path: '<rootDir>/src/i18n/catalogs/start/{locale}', include: ['<rootDir>/src'] },
    { path: '<rootDir>/src/i18n/catalogs/flow/{locale}', include: ['<rootDir>/src'] },
    // The e-mails to shoppers (docs/events.md), rendered by the server.
    { path: '<rootDir>/server/src/email/catalogs/{locale}', include: ['<rootDir>/server/src/email'] },
  ],
  format: formatter({ style: 'minimal' }),
  compileNamespace: 'ts',
}
