import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ShopFile } from '../src/import/shopFile'
import { openPglite } from '../src/storage/database'
import { buildLine, buildOrder, buildShop } from './builders'
import { childEnv, runCommand, scriptCommand } from './spawned'

/** Two shops to import: north with three orders and a blue button, south with one order and none. */
const NORTH = buildShop({
  shop: 'north',
  config: { button_color: '#1f5fbf' },
  orders: [buildOrder({ line_items: [buildLine(), buildLine()] }), buildOrder(), buildOrder()],
})
const SOUTH = buildShop({ shop: 'south', orders: [buildOrder()] })
// Node's start-up, PGlite creating its directory, and a busy machine: generous.
const SLOW = 120_000

describe('import-shop CLI (PGlite in DATA_DIR)', () => {
  let dir: string
  let dataDir: string
  let holders: ChildProcess[]
  let northPath: string
  let southPath: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rebound-cli-'))
    dataDir = join(dir, 'data')
    holders = []
    northPath = writeFile('north.json', NORTH)
    southPath = writeFile('south.json', SOUTH)
  })
  afterEach(async () => {
    for (const holder of holders) {
      if (holder.exitCode === null && holder.signalCode === null) {
        const gone = new Promise((resolve) => holder.once('exit', resolve))
        holder.kill('SIGKILL')
        await gone
      }
    }
    rmSync(dir, { recursive: true, force: true })
  })

  const importShops = (...files: string[]) =>
    runCommand(scriptCommand('import-shop'), files, childEnv({ DATA_DIR: dataDir }))
  const writeFile = (name: string, content: unknown) => {
    const path = join(dir, name)
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
    return path
  }

  /** What the CLI left in DATA_DIR, read once it has exited. */
  async function stored() {
    const db = await openPglite(dataDir)
    try {
      const shops = await db.query<{ id: string; button_color: string | null; orders: number }>(
        "SELECT s.id, s.config->>'button_color' AS button_color, (SELECT COUNT(*)::int FROM orders o WHERE o.shop_id = s.id) AS orders FROM shops s ORDER BY s.id",
      )
      return shops.map((shop) => ({ ...shop, orders: Number(shop.orders) }))
    } finally {
      await db.close()
    }
  }

  /** A process that is alive until the test ends, as a server holding the directory would be. */
  function liveProcess(): number {
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' })
    holders.push(holder)
    return holder.pid!
  }

  test(
    'a valid file exits 0, prints the shop with its order count, and leaves the shop in DATA_DIR and the directory unclaimed',
    async () => {
      const run = await importShops(northPath)
      expect(run.stderr).not.toContain('rejected')
      expect(run.code).toBe(0)
      expect(run.stdout).toContain(`${northPath}: shop north imported: 3 orders (3 added, 0 updated)`)
      expect(existsSync(join(dataDir, '.rebound.pid'))).toBe(false)
      expect(await stored()).toEqual([{ id: 'north', button_color: '#1f5fbf', orders: 3 }])
    },
    SLOW,
  )

  test(
    'an import removes the photo files whose rows are gone (DATA_DIR/photos), and leaves the rest of the directory alone',
    async () => {
      expect((await importShops(northPath)).code).toBe(0)
      // A photo whose row is gone (its order removed by an import, or a crash before the file went).
      mkdirSync(join(dataDir, 'photos'), { recursive: true })
      writeFileSync(join(dataDir, 'photos', 'AAAAAAAAAAAAAAAAAAAAAA'), 'a photo whose row is gone')
      writeFileSync(join(dataDir, 'photos', 'notes.txt'), 'not a photo')
      const run = await importShops(northPath)
      expect(run.code).toBe(0)
      expect(readdirSync(join(dataDir, 'photos'))).toEqual(['notes.txt'])
    },
    SLOW,
  )

  test(
    'an invalid file exits 1 listing its field errors and changes nothing; a valid file imported next into the same directory works',
    async () => {
      expect((await importShops(northPath)).code).toBe(0)
      const spoilt = structuredClone(NORTH)
      spoilt.config.button_color = '#000000'
      spoilt.orders[0]!.line_items[0]!.variant_id = 'no-such-variant'
      spoilt.orders[1]!.line_items[0]!.price = '12,50'
      const invalid = writeFile('invalid.json', spoilt)

      const rejected = await importShops(invalid)
      expect(rejected.code).toBe(1)
      expect(rejected.stderr).toContain(`${invalid}: rejected, nothing was changed:`)
      expect(rejected.stderr).toContain('  - orders[1].line_items[0].price: must be a decimal amount like "25.00"')
      expect(rejected.stdout).not.toContain('imported')
      expect(existsSync(join(dataDir, '.rebound.pid'))).toBe(false)

      const next = await importShops(southPath)
      expect(next.code).toBe(0)
      expect(next.stdout).toContain('shop south imported: 1 order (1 added, 0 updated)')
      expect(await stored()).toEqual([
        { id: 'north', button_color: '#1f5fbf', orders: 3 },
        { id: 'south', button_color: null, orders: 1 },
      ])
    },
    SLOW,
  )

  test(
    'a date in the year 0000 is rejected naming the field, with exit 1, and nothing is written',
    async () => {
      expect((await importShops(northPath)).code).toBe(0)
      const spoilt = structuredClone(NORTH)
      spoilt.config.button_color = '#000000'
      spoilt.orders[2]!.processed_at = '0000-06-01T00:00:00Z'
      const invalid = writeFile('year-zero.json', spoilt)

      const run = await importShops(invalid)
      expect(run.code).toBe(1)
      expect(run.stderr).toBe(
        `${invalid}: rejected, nothing was changed:\n  - orders[2].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)\n`,
      )
      expect(run.stdout).toBe('')
      expect(await stored()).toEqual([{ id: 'north', button_color: '#1f5fbf', orders: 3 }])
    },
    SLOW,
  )

  test(
    'several files, one of them invalid: the valid ones are imported, the invalid one is named, and the exit code is 1',
    async () => {
      const spoilt: ShopFile = { ...SOUTH, currency_code: 'eur' }
      const invalid = writeFile('south-invalid.json', spoilt)
      const run = await importShops(invalid, northPath)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(
        `${invalid}: rejected, nothing was changed:\n  - currency_code: must be an ISO 4217 currency code like "EUR"`,
      )
      expect(run.stdout).toContain(`${northPath}: shop north imported: 3 orders (3 added, 0 updated)`)
      expect((await stored()).map((shop) => shop.id)).toEqual(['north'])
    },
    SLOW,
  )

  test(
    'a file that is not JSON, or is missing, exits 1 saying it cannot be read as JSON',
    async () => {
      const broken = writeFile('broken.json', '{ "shop": "north", ')
      const missing = join(dir, 'missing.json')
      const run = await importShops(broken, missing)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`${broken}: cannot be read as JSON:`)
      expect(run.stderr).toMatch(
        new RegExp(`${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot be read as JSON: ENOENT`),
      )
      expect(run.stdout).toBe('')
    },
    SLOW,
  )

  test(
    'no arguments: exit 2 with the usage, and no directory is touched',
    async () => {
      const run = await importShops()
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('Usage: npm run import-shop -- shop.json')
      expect(existsSync(dataDir)).toBe(false)
    },
    SLOW,
  )

  test(
    'a DATA_DIR held by a live process is refused with exit 1 naming that process, and nothing is written to it',
    async () => {
      const holder = liveProcess()
      mkdirSync(dataDir)
      writeFileSync(join(dataDir, '.rebound.pid'), String(holder))
      const run = await importShops(northPath)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`${dataDir} is in use by process ${holder}; stop it first`)
      expect(run.stdout).toBe('')
      expect(readdirSync(dataDir)).toEqual(['.rebound.pid'])
      expect(readFileSync(join(dataDir, '.rebound.pid'), 'utf8')).toBe(String(holder))
    },
    SLOW,
  )

  test(
    'a DATA_DIR whose pid file names a process that has ended is taken over',
    async () => {
      const ended = spawn('true', [], { stdio: 'ignore' })
      await new Promise((resolve) => ended.once('exit', resolve))
      mkdirSync(dataDir)
      writeFileSync(join(dataDir, '.rebound.pid'), String(ended.pid))
      const run = await importShops(northPath)
      expect(run.code).toBe(0)
      expect(existsSync(join(dataDir, '.rebound.pid'))).toBe(false)
    },
    SLOW,
  )
})
