// The project's lint rules: typescript-eslint's type-checked rules, React's hook rules, no import
// cycles, and the boundaries between the parts (docs/architecture.md):
// - the server and the portal meet only in contract/;
// - shared components do not reach up into the app's wiring;
// - a feature uses only the return flow's core, never another feature;
// - the shop's configuration (src/shop) takes nothing from the flow's features.
// - the server's domain imports no other layer of the server; storage does not reach up into the
//   routes, services or import; services do not import routes.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const FEATURES = [
  'confirm',
  'exchange',
  'products',
  'refundMethod',
  'returnInstruction',
  'returnReason',
  'start',
  'status',
  'upsellExplore',
  'upsellOffer',
]

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'server/dist/',
      'coverage/',
      'test-results/',
      'playwright-report/',
      'node_modules/',
      'src/i18n/catalogs/',
      'server/src/email/catalogs/',
      'public/env.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './server',
              from: './src',
              message: 'The server and the portal share only contract/.',
            },
            {
              target: './src',
              from: './server',
              message: 'The server and the portal share only contract/.',
            },
            {
              target: './contract',
              from: ['./src', './server'],
              message: 'contract/ stands on its own: the portal and the server depend on it, not the reverse.',
            },
            {
              target: './src/components',
              from: './src/app',
              message: 'Shared components do not reach up into the app’s wiring.',
            },
            {
              target: './server/src/domain',
              from: [
                './server/src/storage',
                './server/src/import',
                './server/src/routes',
                './server/src/services',
                './server/src/delivery',
                './server/src/commerce',
              ],
              message: 'The domain is rules alone: it defines the shapes it reads and stores, sends or serves nothing.',
            },
            {
              target: './server/src/commerce',
              from: [
                './server/src/storage',
                './server/src/import',
                './server/src/routes',
                './server/src/services',
                './server/src/delivery',
              ],
              message:
                'An engine adapter speaks to its engine alone: it reads the domain’s actions, never Rebound’s rows.',
            },
            {
              target: './server/src/storage',
              from: ['./server/src/routes', './server/src/services', './server/src/import', './server/src/commerce'],
              message: 'Storage maps rows to the domain’s shapes: the layers above call it, never the reverse.',
            },
            {
              target: './server/src/services',
              from: './server/src/routes',
              message: 'Services are called by routes, never the reverse.',
            },
            {
              target: './server/src/routes',
              from: './server/src/storage',
              // The error handler answers a database out of reach with a 503 (routes/errors.ts).
              except: ['./unavailable.ts'],
              message: 'A route calls a service, which reads and writes through storage: no SQL or rows in routes.',
            },
            ...FEATURES.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`, './returnFlow'],
              message: 'A feature uses the return flow’s core, never another feature.',
            })),
            {
              target: './src/shop',
              from: './src/features',
              message:
                'The shop’s configuration stands below the return flow: the app’s wiring (src/app) hands it what the flow holds.',
            },
            {
              target: './src/admin',
              from: './src/features',
              message:
                'The back office takes nothing from the portal’s features: what both need lives in src/components.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Lingui's CLI loads its configuration as CommonJS, and Node starts the embedded database's
    // worker thread from a CommonJS file as it is (server/src/storage/pgliteThread.js).
    files: ['lingui.config.js', 'server/src/storage/pgliteThread.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
  {
    // A route refuses by throwing (server/src/services/refusal.ts): the one error handler
    // (server/src/routes/errors.ts) sets the status, the body and the headers. A success status
    // (a 201, a 204) is the route's own to set.
    files: ['server/src/routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(code|status)$/] > Literal[value>=400]',
          message:
            'Do not set an error status by hand: throw a Refusal (services/refusal.ts), which the error handler (routes/errors.ts) answers.',
        },
      ],
    },
  },
)
