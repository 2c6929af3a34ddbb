import { defineConfig, devices } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ADMIN_TOKEN, DEMO_STAFF_PASSWORD, TOKEN_SECRET } from './serverSecrets'

/** Debian's Chromium: no test tool downloads its own browser here. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const firstPort = Number(process.env.E2E_PORT ?? 4173)
/**
 * Journeys run in this many workers, each against a product of its own on the next port with a
 * database of its own: a journey puts the demo shops back (fixtures.ts), which would pull the
 * orders from under another worker's journey on a shared server. A worker keeps about two cores
 * busy (Chromium and its server): on two cores a second one halved each journey's speed and
 * gained nothing, so there is one worker per two cores, at most four.
 */
const workers = Number(process.env.E2E_WORKERS ?? Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2))))
// Set in each worker process (Playwright's parallel index), absent in the runner that starts the servers.
const port = firstPort + Number(process.env.TEST_PARALLEL_INDEX ?? 0)

export const baseURL = `http://demo.localhost:${port}`

/** Spec files whose journeys read no width: run in the phone project alone. */
const WIDTH_INDEPENDENT = [
  'build',
  'exchangeOrder',
  'faults',
  'keepfit',
  'languages',
  'lifecycle',
  'medusa',
  'moneyJourney',
  'staleTab',
  'submitRefused',
  'team',
].map((name) => `**/${name}.spec.ts`)

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers,
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
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
      // Journeys of rules and money that nothing at this width changes run at the phone's only:
      // the start, the steps, the layout, the keyboard, the back office and the status page run at
      // both. About a third of the journeys' time on CI.
      testIgnore: WIDTH_INDEPENDENT,
    },
  ],
  webServer: Array.from({ length: workers }, (_, worker) => ({
    // The product as a new user runs it (after `npm run build`): the compiled server serving the
    // built portal, embedded storage.
    command: 'npm start',
    cwd: '..',
    url: `http://127.0.0.1:${firstPort + worker}/health`,
    reuseExistingServer: false,
    // A fresh PGlite took 46 s to open on a busy two-core machine, and the demo shops load after it.
    timeout: 180_000,
    env: {
      PORT: String(firstPort + worker),
      HOST: '127.0.0.1',
      // A fresh embedded database per run: the journeys start from the demo data as a new user would.
      DATA_DIR: mkdtempSync(join(tmpdir(), 'rebound-e2e-')),
      VERIFY_RATE_LIMIT_PER_IP: '1000',
      VERIFY_RATE_LIMIT_PER_ORDER: '1000',
      // Enables POST /admin/shops, through which the journeys reset the demo shops (fixtures.ts).
      ADMIN_TOKEN,
      // Known to the suite, so that build.spec.ts can show that no file the server sends holds it.
      TOKEN_SECRET,
      // The back-office journeys sign in as the demo's staff account.
      DEMO_STAFF_PASSWORD,
    },
  })),
})
