import { defineConfig, devices } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN, DEMO_STAFF_PASSWORD, TOKEN_SECRET } from './serverSecrets'

/** Debian's Chromium: no test tool downloads its own browser here. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const port = Number(process.env.E2E_PORT ?? 4173)
// A fresh embedded database per run: the journeys start from the demo data as a new user would.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'rebound-e2e-'))

export const baseURL = `http://demo.localhost:${port}`

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // Limits that catch a hang on a machine busy with other work, as the unit suites' are
  // (docs/decisions/0054-tests-on-a-busy-machine.md); a passing journey never waits for them.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'phone', use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, browserName: 'chromium' } },
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // The product as a new user runs it (after `npm run build`): the compiled server serving the
    // built portal, embedded storage.
    command: 'npm start',
    cwd: '..',
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: false,
    // A fresh PGlite took 46 s to open on a busy two-core machine, and the demo shops load after it.
    timeout: 180_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      VERIFY_RATE_LIMIT_PER_IP: '1000',
      VERIFY_RATE_LIMIT_PER_ORDER: '1000',
      // Enables POST /admin/shops, through which the journeys reset the demo shops (fixtures.ts).
      ADMIN_TOKEN,
      // Known to the suite, so that build.spec.ts can show that no file the server sends holds it.
      TOKEN_SECRET,
      // The back-office journeys sign in as the demo's staff account.
      DEMO_STAFF_PASSWORD,
    },
  },
})
