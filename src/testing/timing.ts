// How long the portal's tests wait before they call something broken. A machine busy with other work
// (a build, another suite, a second Jest worker) runs a test many times slower than an idle one, and
// a fresh clone's `npm test` must pass there too: these limits catch a hang, never measure speed, so
// they are generous. A passing test never waits for them; only a failing one takes this long to say so.

function fromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** How long `findBy…` and `waitFor` wait for the page to show something (Testing Library's default is 1 s). */
export const WAIT_MS = fromEnv('TEST_WAIT_MS', 15_000)

/** How long one test may take (Jest's default is 5 s); a property test of many runs takes a multiple. */
export const TEST_MS = fromEnv('TEST_TIMEOUT_MS', 60_000)
