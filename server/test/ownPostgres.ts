import { execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './processApi'
import { runCommand } from './spawned'

/**
 * A PostgreSQL server of the test's own (Debian's binaries, a data directory in a temporary
 * folder, loopback only), so that a test can stop it and start it again, as an operator or a
 * failover would, without taking the shared test server from the suites running beside it.
 */
export interface OwnPostgres {
  /** postgres://… to its `postgres` database, as the role `rebound` */
  url: string
  /** `pg_ctl stop -m <mode>` (fast: the server ends every session, as on a restart) */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  start(): Promise<void>
  /** stops it (if running) and deletes its files */
  destroy(): Promise<void>
}

const BIN = (() => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b))
  return join('/usr/lib/postgresql', versions.at(-1)!, 'bin')
})()

/** PostgreSQL refuses to run as root: under root, its commands run as the `postgres` user. */
const AS_ROOT = process.getuid?.() === 0

function command(program: string): string[] {
  return AS_ROOT ? ['/usr/sbin/runuser', '-u', 'postgres', '--', join(BIN, program)] : [join(BIN, program)]
}

async function run(program: string, args: string[]): Promise<void> {
  const done = await runCommand(command(program), args, { ...process.env, LC_ALL: 'C' }, 60_000)
  if (done.code !== 0)
    throw new Error(`${program} ${args.join(' ')} exited ${done.code}:\n${done.stdout}${done.stderr}`)
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'rebound-own-pg-'))
  if (AS_ROOT) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  await run('initdb', ['-D', data, '-U', 'rebound', '-A', 'trust', '--no-sync', '-E', 'UTF8'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60`
  let running = false
  const own: OwnPostgres = {
    url: `postgres://rebound@127.0.0.1:${port}/postgres`,
    async start() {
      await run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'])
      running = true
    },
    async stop(mode = 'fast') {
      await run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop'])
      running = false
    },
    async destroy() {
      if (running) await own.stop('immediate').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
  await own.start()
  return own
}
