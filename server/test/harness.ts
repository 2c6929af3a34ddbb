import { randomBytes } from 'node:crypto'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { ReturnOrder, ReturnRequest, VerifiedOrder } from '../../contract/api'
import { buildApp, type AppOptions } from '../src/app'
import { importShop } from '../src/import/importShop'
import { deleteShop } from '../src/storage/shops'
import type { OrderFile, ShopFile } from '../src/import/shopFile'
import { openPglite, openPostgres, type Database, type Queryable } from '../src/storage/database'
import { migrate } from '../src/storage/migrations'
import { addStaff } from '../src/storage/staff'
import { hashPassword } from '../src/domain/passwords'
import { portalOf } from './builders'

export type Engine = 'pglite' | 'postgres'

/**
 * The engines every route suite runs on: PGlite always, and the PostgreSQL server named by
 * TEST_DATABASE_URL. In CI that server is required: a suite that quietly skipped it would lie.
 */
export function engines(): Engine[] {
  if (process.env.TEST_DATABASE_URL) return ['pglite', 'postgres']
  if (process.env.CI)
    throw new Error(
      'TEST_DATABASE_URL is not set: CI runs the server suites on PostgreSQL too (scripts/postgres.sh starts one)',
    )
  return ['pglite']
}

/** A fresh, empty, migrated database: in-memory PGlite, or a new schema on the PostgreSQL server. */
export async function openTestDatabase(engine: Engine): Promise<Database> {
  if (engine === 'pglite') {
    const db = await openPglite()
    await migrate(db)
    return db
  }
  const schema = await createTestSchema('test')
  const db = await openPostgres(schema.url, 5)
  await migrate(db)
  return {
    ...db,
    async close() {
      await db.close()
      await schema.drop()
    },
  }
}

/**
 * A new, empty schema on the PostgreSQL server of TEST_DATABASE_URL: a database URL whose
 * connections use it (search_path), for a server process or a pool of its own, and its removal.
 */
export async function createTestSchema(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`
  const onServer = async (sql: string) => {
    const admin = await openPostgres(process.env.TEST_DATABASE_URL!, 1)
    try {
      await admin.query(sql)
    } finally {
      await admin.close()
    }
  }
  await onServer(`CREATE SCHEMA ${schema}`)
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return { url: url.toString(), drop: () => onServer(`DROP SCHEMA ${schema} CASCADE`) }
}

export const NOW = new Date('2026-11-20T12:00:00.000Z')

export interface TestApi {
  app: FastifyInstance
  db: Database
  close(): Promise<void>
}

/**
 * Loads each shop afresh: deleted whole if stored (as `DELETE /admin/shops/{shop}` does), then
 * imported as the product does (`importShop`, at `NOW`), so loading them again undoes the returns
 * made since (an import alone keeps them, docs/decisions/0072-import-keeps-returns.md).
 */
export async function loadShops(db: Database, shops: ShopFile[]): Promise<void> {
  for (const file of shops) {
    await db.transaction((tx) => deleteShop(tx, file.shop))
    const result = await importShop(db, file, NOW)
    if (!result.ok) throw new Error(`${file.shop}: ${result.errors.join('\n')}`)
  }
}

/**
 * What most route suites start from: the API on `engine` for the whole suite and, before each
 * test, `shops` as first loaded and `order` of `shop` verified afresh; `use` receives both.
 */
export function eachTestWithVerifiedOrder(
  engine: Engine,
  shops: ShopFile[],
  [shop, order]: [ShopFile, OrderFile],
  use: (ready: { api: TestApi; order: VerifiedOrder }) => void,
  options: Partial<AppOptions> = {},
): void {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine, [], options)
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await loadShops(api.db, shops)
    use({ api, order: await verified(api.app, shop, order) })
  })
}

/** The API on a fresh database with `shops` loaded, at a fixed `NOW`. */
export async function startApi(engine: Engine, shops: ShopFile[], options: Partial<AppOptions> = {}): Promise<TestApi> {
  const db = await openTestDatabase(engine)
  await loadShops(db, shops)
  const app = await buildApp({
    db,
    secret: Buffer.from('test-secret'),
    now: () => NOW,
    limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0 },
    ...options,
  })
  return {
    app,
    db,
    async close() {
      await app.close()
      await db.close()
    },
  }
}

export function verify(app: FastifyInstance, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/portal-registration/verify', payload: body })
}

/** Verifies an order of `shop` that must verify, by its name and e-mail, and gives its answer. */
export async function verified(
  app: FastifyInstance,
  shop: ShopFile,
  order: Pick<OrderFile, 'name' | 'email'>,
): Promise<VerifiedOrder> {
  const response = await verify(app, { order_name: order.name, email: order.email, ...portalOf(shop) })
  if (response.statusCode !== 200) throw new Error(`verify ${order.name}: ${response.statusCode} ${response.body}`)
  return response.json<VerifiedOrder>()
}

/** `db` read through a Queryable of its own, which keeps the SQL of each statement it is given. */
export function counted(db: Queryable): { db: Queryable; statements: string[] } {
  const statements: string[] = []
  return {
    statements,
    db: {
      query: (sql, params) => {
        statements.push(sql)
        return db.query(sql, params)
      },
      exec: (sql) => db.exec(sql),
    },
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** Submits `request` with a verified order's token; the return must be made (201), and its answer is given. */
export async function submitted(
  app: FastifyInstance,
  token: string,
  request: ReturnRequest,
  key = randomBytes(8).toString('hex'),
): Promise<ReturnOrder> {
  const response = await app.inject({
    method: 'POST',
    url: '/portal-registration/returns',
    headers: { ...bearer(token), 'idempotency-key': key },
    payload: request,
  })
  if (response.statusCode !== 201) throw new Error(`submit: ${response.statusCode} ${response.body}`)
  return response.json<ReturnOrder>()
}

/** Signs a staff member in on `host` (docs/back-office.md); the session cookie as a Cookie header. */
export async function staffCookie(
  app: FastifyInstance,
  email: string,
  password: string,
  host: string,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/admin/api/session',
    headers: { host, origin: `http://${host}` },
    payload: { email, password },
  })
  const session = response.cookies.find((each) => each.name === 'rebound_staff')
  if (!session) throw new Error(`sign-in: ${response.statusCode} ${response.body}`)
  return `rebound_staff=${session.value}`
}

const DEMO_STAFF = { email: 'staff@demo.example', password: 'correct horse battery', host: 'demo.localhost' }

/** The demo shop's staff member added (an owner) and signed in on demo.localhost: the session cookie. */
export async function demoStaffCookie(api: TestApi): Promise<string> {
  await addStaff(api.db, 'demo', DEMO_STAFF.email, await hashPassword(DEMO_STAFF.password), NOW)
  return staffCookie(api.app, DEMO_STAFF.email, DEMO_STAFF.password, DEMO_STAFF.host)
}
