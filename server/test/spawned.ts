import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'

/** The repository root: children run from here, as `npm start` and `npm run import-shop` do. */
export const ROOT = resolve(__dirname, '../..')

/**
 * The command of an npm script (package.json) up to its JavaScript file, without its arguments:
 * `start` gives `node --enable-source-maps server/dist/server/src/server.js`. The tests run the
 * compiled server and CLI exactly as the scripts do (buildServer.ts compiles them first).
 */
export function scriptCommand(name: 'start' | 'import-shop' | 'staff'): string[] {
  const scripts = (
    JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts
  const words = (scripts[name] ?? '').split(/\s+/)
  const script = words.findIndex((word) => word.endsWith('.js'))
  if (words[0] !== 'node' || script < 0) throw new Error(`npm run ${name} does not run a .js file with node`)
  return [process.execPath, ...words.slice(1, script + 1)]
}

// Settings of this process that must not reach a child: it gets only what a test gives it.
const UNSET = [
  'DATABASE_URL',
  'DATA_DIR',
  'TOKEN_SECRET',
  'ADMIN_TOKEN',
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'NODE_OPTIONS',
  'DEMO_STAFF_PASSWORD',
  'STAFF_PASSWORD',
  'PORTAL_ORIGIN',
]

/** This process's environment without the server's settings (and Jest's NODE_OPTIONS), plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of UNSET) delete env[name]
  for (const name of Object.keys(env)) if (name.startsWith('VERIFY_')) delete env[name]
  return { ...env, ...extra }
}

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface Spawned {
  child: ChildProcess
  stdout(): string
  stderr(): string
  /** settles when the child has exited and its output is read */
  exited: Promise<Exit>
  /** SIGKILL to the child's whole process group (with `underShell`, the shell and its child) */
  killAll(): void
}

/**
 * `command args…` in a process group of its own, so that a test can always end it (and, with
 * `underShell`, the shell and the process it runs), whatever the test's outcome. `underShell`
 * runs the command as a shell's child, as `npm start` does: a test can stop the shell so that
 * the process, once killed, is not reaped (the jest worker reaps its own children at once).
 */
export function spawnCommand(
  command: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { underShell?: boolean } = {},
): Spawned {
  const [file, ...rest] = options.underShell
    ? ['/bin/sh', '-c', '"$@"; exit $?', 'sh', ...command, ...args]
    : [...command, ...args]
  const child = spawn(file!, rest, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<Exit>((resolveExit, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => resolveExit({ code, signal }))
  })
  exited.catch(() => {})
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    killAll() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    },
  }
}

/** Resolves with `promise`, or rejects after `ms` naming `what`. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export interface Run extends Exit {
  stdout: string
  stderr: string
}

/** Runs `command args…` to its end (killed after `timeoutMs`), with its exit and output. */
export async function runCommand(
  command: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<Run> {
  const run = spawnCommand(command, args, env)
  try {
    const exit = await within(timeoutMs, [...command, ...args].join(' '), run.exited)
    return { ...exit, stdout: run.stdout(), stderr: run.stderr() }
  } finally {
    run.killAll()
  }
}

/** A free port on 127.0.0.1 for a spawned server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
