// Medusa for the Rebound tests (docs/medusa.md): PostgreSQL only, no Redis, so the defaults
// apply (local event bus, in-memory cache, locking and workflow engine); no admin dashboard to
// build. The harness (server/test/medusa/engine.ts) sets every variable read here.
// Medusa loads its configuration with require(): CommonJS, so that it needs no compile step.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defineConfig } = require('@medusajs/framework/utils')

const cors = process.env.MEDUSA_CORS || 'http://127.0.0.1'

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    databaseDriverOptions: { connection: { ssl: false } },
    http: {
      storeCors: cors,
      adminCors: cors,
      authCors: cors,
      jwtSecret: process.env.JWT_SECRET || 'rebound-test-jwt',
      cookieSecret: process.env.COOKIE_SECRET || 'rebound-test-cookie',
    },
  },
  admin: { disable: true },
})
