import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ShopFile } from '../src/import/shopFile'
import { readProcessStat } from '../src/storage/dataDirLock'
import { buildLine, buildOrder, buildProduct, buildShop, portalOf } from './builders'
import { BURST_SHOP, freePort, importWithCli, killDuringBurst, oneUnit, submit, verify } from './processApi'
import { startServer, type ServerProcess } from './serverProcess'
import { within, type Spawned } from './spawned'

/**
 * The real server as a process on PGlite: what a commit promises when the process dies, how it
 * stops, and what a second start on the same DATA_DIR does. Only 127.0.0.1, every wait bounded.
 */

const SLOW = 180_000
const ADMIN_TOKEN = 'admin-token-for-process-tests'

/** #1001 with a tee and a mug, #1005 with one tote. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ variant_id: 'tee-m' }), buildLine({ variant_id: 'mug-default' })],
})
const solo = buildOrder({
  name: '#1005',
  email: 'solo@example.com',
  line_items: [buildLine({ variant_id: 'tote-default' })],
})
const SHOP = buildShop({
  shop: 'north',
  config: { button_color: '#1f5fbf' },
  catalogue: [
    buildProduct(),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [] }),
    buildProduct({ id: 'tote', title: 'Canvas Tote', sizes: [] }),
  ],
  orders: [jane, solo],
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The parent of `pid` (Linux), or null when it is gone. */
function parentOf(pid: number): number | null {
  try {
    // "pid (comm) state ppid …"; comm may hold spaces, so read after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return null
  }
}

describe('the server process on PGlite', () => {
  let dataDir: string
  let started: Spawned[]
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rebound-process-'))
    started = []
  })
  afterEach(async () => {
    // Whatever happened: each server's process group (a stopped shell and its child with it).
    for (const server of started) {
      server.killAll()
      await within(10_000, 'a server to end', server.exited).catch(() => {})
    }
    rmSync(dataDir, { recursive: true, force: true })
  })

  const pidFile = () => join(dataDir, '.rebound.pid')
  /** The pid in DATA_DIR/.rebound.pid: the process running the server. */
  const holder = (): number | null => (existsSync(pidFile()) ? Number(readFileSync(pidFile(), 'utf8')) || null : null)

  /** The shops loaded into DATA_DIR as an operator does (the import CLI), before a first start. */
  const load = (...shops: ShopFile[]) => importWithCli({ DATA_DIR: dataDir }, shops)

  async function start(
    extra: Record<string, string> = {},
    options: { underShell?: boolean } = {},
  ): Promise<ServerProcess> {
    // The processes' durability is tested here, not the verify limits (asShipped.test.ts): raised.
    const server = await startServer(
      {
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        VERIFY_RATE_LIMIT_PER_IP: '10000',
        VERIFY_RATE_LIMIT_PER_ORDER: '10000',
        VERIFY_FAILURE_FLOOR_MS: '0',
        ...extra,
      },
      [],
      options,
    )
    started.push(server.process)
    return server
  }

  /** kill -9 of the process running the server, as an OOM kill or a power cut of the container would. */
  async function killHard(server: ServerProcess): Promise<void> {
    const pid = holder()
    // The pid file names the server's own process: the one started, no wrapper between.
    expect(pid).toBe(server.process.child.pid)
    process.kill(pid!, 'SIGKILL')
    await within(15_000, 'the killed server to be reaped', server.process.exited)
    // What a crash leaves behind: the pid file of a process that no longer exists.
    expect(holder()).toBe(pid)
  }

  async function stop(server: ServerProcess): Promise<void> {
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  }

  test(
    'a return answered 201 survives kill -9: after a restart the same submit is a 200 with the same return, and the mug is already returned',
    async () => {
      await load(SHOP)
      const first = await start()
      const order = await verify(first, SHOP, jane)
      const mug = order.line_items.find((line) => line.title === 'Ceramic Mug')!
      const created = await submit(first, order.token, 'kill-nine-0001', oneUnit(mug.id))
      expect(created.status).toBe(201)

      await killHard(first)
      const second = await start()

      // The token was signed with the secret kept in the database: it still works.
      const retried = await submit(second, order.token, 'kill-nine-0001', oneUnit(mug.id))
      expect(retried).toEqual({ status: 200, body: created.body })
      const again = await verify(second, SHOP, jane)
      expect(again.line_items.find((line) => line.id === mug.id)).toMatchObject({
        returnable_quantity: 0,
        ineligible_reason: 'already_returned',
      })
      await stop(second)
    },
    SLOW,
  )

  test(
    'kill -9 and a start at once on the same DATA_DIR: it starts although the killed process is not reaped yet (a zombie), and keeps the return',
    async () => {
      await load(SHOP)
      // A shell's child, as `npm start` runs it: the shell is the parent that reaps it.
      const first = await start({}, { underShell: true })
      const order = await verify(first, SHOP, jane)
      const mug = order.line_items.find((line) => line.title === 'Ceramic Mug')!
      const created = await submit(first, order.token, 'zombie-restart-0001', oneUnit(mug.id))
      expect(created.status).toBe(201)

      const pid = holder()!
      const shell = first.process.child.pid!
      expect(parentOf(pid)).toBe(shell)
      // The shell is stopped so that it cannot reap its child: the killed server stays a zombie for
      // as long as this start takes, as it does while a busy or slow parent has not reaped it yet.
      process.kill(shell, 'SIGSTOP')
      process.kill(pid, 'SIGKILL')
      for (const deadline = Date.now() + 10_000; readProcessStat(pid)?.state !== 'Z'; await sleep(20)) {
        if (Date.now() > deadline) throw new Error(`the killed server (${pid}) did not become a zombie`)
      }

      const second = await start()
      // The killed server is a zombie still: the second start took the directory without waiting for it to be reaped.
      expect(readProcessStat(pid)?.state).toBe('Z')
      expect(holder()).not.toBe(pid)
      expect(await submit(second, order.token, 'zombie-restart-0001', oneUnit(mug.id))).toEqual({
        status: 200,
        body: created.body,
      })
      await stop(second)
    },
    SLOW,
  )

  test(
    'kill -9 in the middle of a burst of submits: every return answered 201 is there after a restart, and each unit is returned exactly once',
    async () => {
      await load(BURST_SHOP)
      await stop(await killDuringBurst({ start: () => start(), killHard }, 'burst'))
    },
    SLOW,
  )

  test(
    'SIGTERM stops the server cleanly (exit 0, pid file released) and a restart keeps the data',
    async () => {
      await load(SHOP)
      const first = await start()
      const order = await verify(first, SHOP, solo)
      const tote = order.line_items[0]!
      const created = await submit(first, order.token, 'sigterm-0001', oneUnit(tote.id))
      expect(created.status).toBe(201)

      await stop(first)
      expect(existsSync(pidFile())).toBe(false)
      expect(first.log()).toContain('"msg":"stopping"')

      const second = await start()
      expect(await submit(second, order.token, 'sigterm-0001', oneUnit(tote.id))).toEqual({
        status: 200,
        body: created.body,
      })
      // Its only item is returned: the order can no longer be verified.
      const again = await second.call('POST', '/portal-registration/verify', {
        order_name: solo.name,
        email: solo.email,
        ...portalOf(SHOP),
      })
      expect(again).toEqual({ status: 400, body: { error: 'order_already_has_return' } })
      await stop(second)
    },
    SLOW,
  )

  test(
    'the demo shops are loaded on a first start only: a second start keeps a shop imported since and its return, and logs no loading',
    async () => {
      const first = await start({ ADMIN_TOKEN })
      expect(first.log()).toContain('loaded the demo shops')
      expect((await first.call('POST', '/admin/shops', SHOP, { authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(
        201,
      )
      const order = await verify(first, SHOP, jane)
      const created = await submit(first, order.token, 'second-start-0001', oneUnit(order.line_items[1]!.id))
      expect(created.status).toBe(201)
      await stop(first)

      const second = await start()
      expect(second.log()).not.toContain('demo shops')
      expect((await second.call('GET', '/portal-registration/config/north')).body).toMatchObject({
        button_color: '#1f5fbf',
      })
      expect(await submit(second, order.token, 'second-start-0001', oneUnit(order.line_items[1]!.id))).toEqual({
        status: 200,
        body: created.body,
      })
      await stop(second)
    },
    SLOW,
  )
})
