import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * Jest's global setup of the server suites: compiles the server as `npm run build` does, so that
 * the suites that start it as a process (serverProcess.ts, cli.test.ts) run the JavaScript that
 * ships, built from the sources under test, never a stale build. Incremental: a second run with
 * nothing changed takes a couple of seconds.
 */
export default function buildServer(): void {
  const env = { ...process.env }
  delete env.NODE_OPTIONS // Jest's --experimental-vm-modules is no concern of the compiler
  execFileSync('npm', ['run', '--silent', 'build:server'], {
    cwd: resolve(__dirname, '../..'),
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
}
