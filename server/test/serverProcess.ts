import { request } from 'node:http'
import type { Answer, CallsServer } from './processApi'
import { childEnv, scriptCommand, spawnCommand, within, type Exit, type Spawned } from './spawned'

/**
 * The real entry point as shipped (the compiled server.js that `npm start` runs) as a child
 * process, and calls to it over HTTP from any loopback address: 127.0.0.2 is another client than
 * 127.0.0.1, as two shoppers' phones are, so per-client limits can be tested without trusting a
 * proxy.
 */
export interface ServerProcess extends CallsServer {
  process: Spawned
  port: number
  /** everything the server wrote to standard output and error so far */
  log(): string
  /** the call, made from `from` (a loopback address), with how long the answer took */
  callFrom<T = unknown>(
    from: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Timed<T>>
  /** SIGTERM, and its exit */
  stop(): Promise<Exit>
}

/** An answer with its headers and how long it took, from the request's start to its last byte. */
export type Timed<T> = Answer<T> & { ms: number; headers: Record<string, string | string[] | undefined> }

const START_MS = 90_000
const REQUEST_MS = 20_000

/** One HTTP call with a JSON body (when given), from `localAddress`; the answer's body as JSON, else as text. */
export function httpCall<T>(
  port: number,
  localAddress: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Timed<T>> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method,
        path,
        agent: false,
        timeout: REQUEST_MS,
        headers:
          payload === undefined
            ? headers
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const ms = performance.now() - started
          const text = Buffer.concat(chunks).toString('utf8')
          let parsed: unknown = text
          try {
            parsed = JSON.parse(text)
          } catch {
            // not JSON: the text as it came
          }
          resolve({ status: response.statusCode ?? 0, body: parsed as T, ms, headers: response.headers })
        })
        response.on('error', reject)
      },
    )
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${method} ${path}: no answer within ${REQUEST_MS} ms`)))
    outgoing.on('error', reject)
    outgoing.end(payload)
  })
}

/**
 * Starts the compiled server as `npm start` runs it, with this process's environment less every
 * server setting, plus `env` (give it PORT and DATA_DIR or DATABASE_URL), and waits for /health.
 * `underShell`: see spawnCommand. The caller stops it (stop or process.killAll) whatever happens.
 */
export async function startServer(
  env: Record<string, string>,
  args: string[] = [],
  options: { underShell?: boolean } = {},
): Promise<ServerProcess> {
  const port = Number(env.PORT)
  if (!Number.isInteger(port) || port <= 0) throw new Error('startServer needs a PORT (freePort())')
  const spawned = spawnCommand(scriptCommand('start'), args, childEnv(env), options)
  const log = () => spawned.stdout() + spawned.stderr()
  const callFrom = async <T>(
    from: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    try {
      return await httpCall<T>(port, from, method, path, body, headers)
    } catch (error) {
      throw new Error(`${method} ${path} failed: ${(error as Error).message}\n${log()}`, { cause: error })
    }
  }
  const server: ServerProcess = {
    process: spawned,
    port,
    log,
    callFrom,
    // What the shared process calls compare: the status and the body only.
    async call<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>> {
      const { status, body: answer } = await callFrom<T>('127.0.0.1', method, path, body, headers)
      return { status, body: answer }
    },
    async stop() {
      spawned.child.kill('SIGTERM')
      return within(20_000, 'the server to stop on SIGTERM', spawned.exited)
    },
  }
  const deadline = Date.now() + START_MS
  for (;;) {
    if (spawned.child.exitCode !== null || spawned.child.signalCode !== null)
      throw new Error(`the server exited while starting:\n${log()}`)
    if (Date.now() > deadline) {
      spawned.killAll()
      throw new Error(`the server did not answer /health within ${START_MS} ms:\n${log()}`)
    }
    // Started: /health answers, and the banner (its demo links and staff sign-in, which the server
    // prints after it listens, once its database has answered) is out for the tests that read it.
    const health = await httpCall(port, '127.0.0.1', 'GET', '/health').catch(() => null)
    if (health?.status === 200 && spawned.stdout().includes('Rebound is running')) return server
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/**
 * Signs in with the staff account the first start printed ("Staff sign-in: http://demo.localhost:…/admin
 * staff@demo.example / <password>") on `host`; answers the session cookie.
 */
export async function signInPrintedStaff(server: ServerProcess, host = 'demo.localhost'): Promise<string> {
  const [, email, password] = /Staff sign-in: \S+\s+(\S+) \/ (\S+)/.exec(server.log()) ?? []
  if (!email || !password) throw new Error(`no staff sign-in printed:\n${server.log()}`)
  const signIn = await server.callFrom(
    '127.0.0.1',
    'POST',
    '/admin/api/session',
    { email, password },
    { host, origin: `http://${host}` },
  )
  const session = [signIn.headers['set-cookie'] ?? []].flat().find((each) => each.startsWith('rebound_staff='))
  if (!session) throw new Error(`sign-in: ${signIn.status} ${JSON.stringify(signIn.body)}`)
  return session.split(';')[0]!
}
