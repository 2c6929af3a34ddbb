// A test's time limit catches a hang; it measures nothing. A fresh PGlite starts in a second or two
// on an idle machine, but took 46 s on one whose two cores were busy with other work (a build,
// other suites), where a route suite's first hook ran past 120 s: five minutes by default, and
// TEST_TIMEOUT_MS to change it. A passing test never waits for it.
const fromEnv = Number(process.env.TEST_TIMEOUT_MS)
jest.setTimeout(Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 300_000)
