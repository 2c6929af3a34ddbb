/**
 * What the benchmarks share: starting and stopping the product (the Portal API, and with
 * `staticDir` the built portal) on loopback, a free port, and a production build that is current.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import { join, resolve } from 'node:path'

export const root = join(__dirname, '..')

let serverBuilt = false

/**
 * Compiles the server (`npm run build:server`, incremental) once per process: the benchmarks
 * measure the JavaScript that ships, built from the sources as they are.
 */
export function buildServer() {
  if (serverBuilt) return
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  serverBuilt = true
}

/**
 * Starts the compiled server as `npm start` does (server/dist/server/src/server.js) on
 * 127.0.0.1:`port` with the rate limit relaxed and the log quiet (`env` overrides either), and
 * resolves once GET /health answers. BENCH_NODE_ARGS adds node options (`--cpu-prof`) to the server's.
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
  options: { staticDir?: string } = {},
): Promise<ChildProcess> {
  buildServer()
  // BENCH_NODE_ARGS: node's own options for the server (--cpu-prof, to see where its time goes).
  const args = [
    ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    'server/dist/server/src/server.js',
    ...(options.staticDir ? ['--static', options.staticDir] : []),
  ]
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      VERIFY_RATE_LIMIT_PER_IP: '100000',
      VERIFY_RATE_LIMIT_PER_ORDER: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server on :${port} exited with ${child.exitCode}`)
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  child.kill('SIGKILL')
  throw new Error(`the server on :${port} did not start`)
}

/** SIGTERM, and SIGKILL when the server has not exited 5 s later. */
export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}

/**
 * The first port in from..to that nothing listens on at 127.0.0.1. BENCH_PORTS=<from>-<to> puts
 * every benchmark's ports in that range instead (a machine shared with other runs).
 */
export async function freePort(defaultFrom = 8470, defaultTo = 8490): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '')
  const [from, to] = range ? [Number(range[1]), Number(range[2])] : [defaultFrom, defaultTo]
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error(`no free port in ${from}-${to}`)
}

/**
 * `count` free ports at 127.0.0.1 for a benchmark's servers: within BENCH_PORTS (`from-to`) when
 * set, so that sessions benchmarking on one machine at once keep apart, else within from..to.
 */
export async function benchPorts(count: number, from = 8430, to = 8439): Promise<number[]> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '')
  let next = range ? Number(range[1]) : from
  const last = range ? Number(range[2]) : to
  const ports: number[] = []
  while (ports.length < count) {
    const port = await freePort(next, last)
    ports.push(port)
    next = port + 1
  }
  return ports
}

/** CPU time (ms) a process has used so far, by /proc (Linux); 0 where it cannot be read. */
export function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in ticks of 10 ms
  } catch {
    return 0
  }
}

/** The newest modification time of the files under `path` (a file or a folder). */
function newest(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs)
}

/**
 * Runs `npm run build` when dist/ is missing or older than the portal's sources; returns dist/.
 * BENCH_DIST names another build to measure instead (as it is: nothing is built).
 */
export function ensureBuilt(): string {
  if (process.env.BENCH_DIST) return resolve(process.env.BENCH_DIST)
  const dist = join(root, 'dist')
  const built = existsSync(join(dist, 'index.html')) ? statSync(join(dist, 'index.html')).mtimeMs : 0
  const sources = Math.max(
    ...['src', 'public', 'webpack.config.mjs', 'package-lock.json', 'tsconfig.json'].map((path) =>
      newest(join(root, path)),
    ),
  )
  if (built < sources) {
    console.log('Building the portal (dist/ is missing or older than its sources)…')
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
    // webpack leaves a file it would write unchanged as it was: dated now, the build is current.
    const now = new Date()
    utimesSync(join(dist, 'index.html'), now, now)
  }
  return dist
}

/**
 * How busy the machine is (load average over the last minute against its cores). Timings of the
 * browser benchmarks (Lighthouse multiplies the CPU time it observes by 4) grow with it.
 */
export function machineLoad(): { loadAverage: number; cores: number; busy: boolean; note: string } {
  const loadAverage = Math.round(loadavg()[0]! * 100) / 100
  const cores = availableParallelism()
  const busy = loadAverage > cores
  const note = busy
    ? `The machine is busy (load average ${loadAverage} on ${cores} cores): other processes inflate the timings; run again when it is quiet.`
    : `Load average ${loadAverage} on ${cores} cores.`
  return { loadAverage, cores, busy, note }
}
