import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'

/** The repository root: children run from here, as `npm start` and `npm run import-shop` do. */
export const ROOT = resolve(__dirname, '../..')
const TSX = resolve(ROOT, 'node_modules/.bin/tsx')

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
  /** SIGKILL to the child's whole process group (tsx runs the script in a child of its own) */
  killAll(): void
}

/**
 * `tsx script args…` in a process group of its own, so that a test can always end it and the
 * process tsx starts for the script, whatever the test's outcome.
 */
export function spawnTsx(script: string, args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(TSX, [script, ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
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

/** Runs `tsx script args…` to its end (killed after `timeoutMs`), with its exit and output. */
export async function runTsx(script: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Run> {
  const run = spawnTsx(script, args, env)
  try {
    const exit = await within(timeoutMs, `tsx ${script} ${args.join(' ')}`, run.exited)
    return { ...exit, stdout: run.stdout(), stderr: run.stderr() }
  } finally {
    run.killAll()
  }
}
