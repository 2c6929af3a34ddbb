import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Client } from 'pg'
import { childEnv, freePort, runCommand, within, type Exit } from '../spawned'

/**
 * A real Medusa v2 for the tests (docs/medusa.md): the engine project in engines/medusa, installed
 * by scripts/medusa.sh, migrated once into a template database on the test PostgreSQL server
 * (TEST_DATABASE_URL) named by the hash of what shapes it, copied for every start, seeded over
 * the Admin API with what a shop needs to take an order.
 */

export const ENGINE_DIR = resolve(__dirname, '../../../engines/medusa')
const ROOT = resolve(ENGINE_DIR, '../..')
const CLI = resolve(ENGINE_DIR, 'node_modules/@medusajs/cli/cli.js')

export const ADMIN_EMAIL = 'admin@rebound.test'
const ADMIN_PASSWORD = 'rebound-admin-password'

/** Serialises the install and the template's making between Jest workers (any constant key). */
const LOCK_KEY = 730_073

/** What a running Medusa gives a test. */
export interface Medusa {
  url: string
  /** the secret API key (sk_…) Rebound would store: `Authorization: Basic base64(sk_…:)` */
  secretApiKey: string
  publishableKey: string
  salesChannelId: string
  stockLocationId: string
  regionId: string
  shippingOptionId: string
  currency: string
  /** the products' variants by SKU (`TEE-S`, `TEE-M`, `TEE-L`, `CAP`), with their inventory item */
  variants: Record<string, { id: string; inventoryItemId: string; price: number }>
  /** seconds each phase took, for docs/medusa.md */
  timings: Record<string, number>
  /** the server's output so far, for a failing test's message */
  log(): string
  /** kills the server's process group (the database stays, for a test of an absent engine) */
  kill(): Promise<void>
  /** starts the server again on the same address and database (after `kill`, an outage's end) */
  restart(): Promise<void>
  /** kills the server and drops its database */
  stop(): Promise<void>
}

export interface PlacedOrder {
  orderId: string
  displayId: number
  email: string
  lineItems: { id: string; variantId: string; quantity: number; unitPrice: number }[]
  /** in Medusa's major units, as it answers */
  total: number
}

function lockfileHash(): string {
  const hash = createHash('sha256')
  for (const file of ['package-lock.json', 'medusa-config.js']) hash.update(readFileSync(resolve(ENGINE_DIR, file)))
  hash.update(ADMIN_EMAIL + ADMIN_PASSWORD)
  return hash.digest('hex').slice(0, 16)
}

function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

function engineEnv(database: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return childEnv({
    DATABASE_URL: databaseUrl(database),
    MEDUSA_DISABLE_TELEMETRY: 'true',
    NODE_ENV: 'development',
    ...extra,
  })
}

interface EngineProcess {
  output(): string
  exited: Promise<Exit>
  /** SIGKILL to its whole process group */
  killAll(): void
}

/** The Medusa CLI (`medusa <args>`) run from the engine's folder, in a process group of its own. */
function spawnCli(args: string[], env: NodeJS.ProcessEnv): EngineProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ENGINE_DIR,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const exited = new Promise<Exit>((resolveExit, reject) => {
    child.once('error', reject)
    child.once('close', (code, signal) => resolveExit({ code, signal }))
  })
  exited.catch(() => {})
  return {
    output: () => output,
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

async function medusaCli(args: string[], database: string, timeoutMs: number): Promise<void> {
  const run = spawnCli(args, engineEnv(database))
  try {
    const exit = await within(timeoutMs, `medusa ${args[0]}`, run.exited)
    if (exit.code !== 0) throw new Error(`medusa ${args[0]} exited ${exit.code}:\n${run.output().slice(-4000)}`)
  } finally {
    run.killAll()
  }
}

async function seconds<T>(timings: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await work()
  } finally {
    timings[name] = Math.round((performance.now() - started) / 100) / 10
  }
}

async function databaseExists(admin: Client, name: string): Promise<boolean> {
  return (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1
}

/**
 * The engine installed (scripts/medusa.sh, cheap when its stamp matches the lockfile), the template
 * migrated (once per hash, with its admin user), and a fresh copy of it, under an advisory lock so
 * that two workers never install or migrate at once.
 */
export async function freshDatabase(timings: Record<string, number>): Promise<string> {
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL })
  await admin.connect()
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [LOCK_KEY])
    await seconds(timings, 'install', async () => {
      const run = await runCommand(['bash', resolve(ROOT, 'scripts/medusa.sh')], [], childEnv({}), 20 * 60_000)
      if (run.code !== 0) throw new Error(`scripts/medusa.sh exited ${run.code}:\n${run.stdout}${run.stderr}`)
    })
    const template = `medusa_template_${lockfileHash()}`
    if (!(await databaseExists(admin, template))) {
      await seconds(timings, 'migrate', async () => {
        // Made under another name and renamed at the end: a half-made template is never used.
        const building = `${template}_building`
        await admin.query(`DROP DATABASE IF EXISTS ${building}`)
        await admin.query(`CREATE DATABASE ${building}`)
        await medusaCli(['db:migrate'], building, 10 * 60_000)
        await medusaCli(['user', '-e', ADMIN_EMAIL, '-p', ADMIN_PASSWORD], building, 5 * 60_000)
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`)
      })
    }
    const copy = `medusa_run_${randomBytes(6).toString('hex')}`
    await seconds(timings, 'copy', () => admin.query(`CREATE DATABASE ${copy} TEMPLATE ${template}`))
    return copy
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => {})
    await admin.end()
  }
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL })
  await admin.connect()
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } finally {
    await admin.end()
  }
}

/** Waits (a condition, not a sleep) until `GET /health` answers 200, or the process ends. */
async function healthy(url: string, server: EngineProcess, timeoutMs: number): Promise<void> {
  let exited = false
  void server.exited.then(() => (exited = true))
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Medusa exited before it was ready:\n${server.output().slice(-4000)}`)
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
      (answer) => answer.ok,
      () => false,
    )
    if (ok) return
    await new Promise((wake) => setTimeout(wake, 200))
  }
  throw new Error(`Medusa not healthy within ${timeoutMs} ms:\n${server.output().slice(-4000)}`)
}

/** A JSON call to the running engine for the harness; a non-2xx answer throws with its body. */
export async function call<T = Record<string, unknown>>(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<T> {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  })
  const text = await answer.text()
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`)
  return (text ? JSON.parse(text) : {}) as T
}

export const basicAuth = (secretApiKey: string) => ({
  authorization: `Basic ${Buffer.from(`${secretApiKey}:`).toString('base64')}`,
})

type Row = { id: string } & Record<string, unknown>

/** What a shop needs to take an order, made over the Admin API (the admin user signs in once). */
async function seed(url: string): Promise<Omit<Medusa, 'url' | 'timings' | 'log' | 'kill' | 'restart' | 'stop'>> {
  const { token } = await call<{ token: string }>(
    url,
    'POST',
    '/auth/user/emailpass',
    {},
    {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    },
  )
  const { api_key: secret } = await call<{ api_key: { token: string } }>(
    url,
    'POST',
    '/admin/api-keys',
    { authorization: `Bearer ${token}` },
    { title: 'Rebound', type: 'secret' },
  )
  // Everything else with the secret key, as Rebound will call.
  const auth = basicAuth(secret.token)
  const admin = <T = Record<string, Row>>(method: string, path: string, body?: unknown) =>
    call<T>(url, method, path, auth, body)

  // Independent calls go together: the seed waits on the engine's database far more than on its CPU.
  const currency = 'eur'
  const [{ sales_channel: channel }, { api_key: publishable }, { region }, { stock_location: location }, profiles] =
    await Promise.all([
      admin('POST', '/admin/sales-channels', { name: 'Rebound test shop' }),
      admin<{ api_key: { id: string; token: string } }>('POST', '/admin/api-keys', {
        title: 'Rebound test storefront',
        type: 'publishable',
      }),
      admin('POST', '/admin/regions', {
        name: 'Europe',
        currency_code: currency,
        countries: ['de', 'nl'],
        payment_providers: ['pp_system_default'],
      }),
      admin('POST', '/admin/stock-locations', {
        name: 'Rebound warehouse',
        address: { address_1: 'Lagerstraße 1', city: 'Berlin', country_code: 'de' },
      }),
      admin<{ shipping_profiles: Row[] }>('GET', '/admin/shipping-profiles?type=default'),
    ])
  const profile = profiles.shipping_profiles[0]!
  const [withSet] = await Promise.all([
    admin<{ stock_location: { fulfillment_sets: Row[] } }>(
      'POST',
      `/admin/stock-locations/${location!.id}/fulfillment-sets?fields=*fulfillment_sets`,
      { name: 'Rebound shipping', type: 'shipping' },
    ),
    admin('POST', `/admin/api-keys/${publishable.id}/sales-channels`, { add: [channel!.id] }),
    admin('POST', `/admin/stock-locations/${location!.id}/sales-channels`, { add: [channel!.id] }),
    admin('POST', `/admin/stock-locations/${location!.id}/fulfillment-providers`, { add: ['manual_manual'] }),
  ])
  const fulfillmentSet = withSet.stock_location.fulfillment_sets[0]!
  const withZone = await admin<{ fulfillment_set: { service_zones: Row[] } }>(
    'POST',
    `/admin/fulfillment-sets/${fulfillmentSet.id}/service-zones`,
    {
      name: 'Europe',
      geo_zones: [
        { type: 'country', country_code: 'de' },
        { type: 'country', country_code: 'nl' },
      ],
    },
  )
  const zone = withZone.fulfillment_set.service_zones[0]!
  const shippingOption = (name: string, description: string, isReturn: boolean) =>
    admin('POST', '/admin/shipping-options', {
      name,
      service_zone_id: zone.id,
      shipping_profile_id: profile.id,
      provider_id: 'manual_manual',
      price_type: 'flat',
      prices: [{ currency_code: currency, amount: 5 }],
      type: { label: name, description, code: name.toLowerCase() },
      rules: [
        { attribute: 'enabled_in_store', value: 'true', operator: 'eq' },
        { attribute: 'is_return', value: String(isReturn), operator: 'eq' },
      ],
    })

  const products: { title: string; handle: string; prices: Record<string, number>; sizes?: string[] }[] = [
    {
      title: 'Organic tee',
      handle: 'organic-tee',
      prices: { 'TEE-S': 25.5, 'TEE-M': 25.5, 'TEE-L': 27 },
      sizes: ['S', 'M', 'L'],
    },
    { title: 'Wool cap', handle: 'wool-cap', prices: { CAP: 19.99 } },
  ]
  type Made = { product: { variants: { id: string; sku: string; inventory_items: { inventory_item_id: string }[] }[] } }
  const makeProduct = (product: (typeof products)[number]) => {
    const skus = Object.keys(product.prices)
    const sizes = product.sizes ?? ['One size']
    return admin<Made>('POST', '/admin/products?fields=*variants,*variants.inventory_items', {
      title: product.title,
      handle: product.handle,
      status: 'published',
      shipping_profile_id: profile.id,
      sales_channels: [{ id: channel!.id }],
      options: [{ title: 'Size', values: sizes }],
      variants: skus.map((sku, index) => ({
        title: sizes[index],
        sku,
        manage_inventory: true,
        options: { Size: sizes[index] },
        prices: [{ currency_code: currency, amount: product.prices[sku] }],
      })),
    })
  }
  const [{ shipping_option: standard }, , ...made] = await Promise.all([
    shippingOption('Standard', 'Two to three days', false),
    shippingOption('Return', 'Back to the warehouse', true),
    ...products.map(makeProduct),
  ])
  const variants: Medusa['variants'] = {}
  made.forEach((one, index) => {
    for (const variant of one.product.variants)
      variants[variant.sku] = {
        id: variant.id,
        inventoryItemId: variant.inventory_items[0]!.inventory_item_id,
        price: products[index]!.prices[variant.sku]!,
      }
  })
  await admin('POST', '/admin/inventory-items/location-levels/batch', {
    create: Object.values(variants).map((variant) => ({
      inventory_item_id: variant.inventoryItemId,
      location_id: location!.id,
      stocked_quantity: 100,
    })),
  })
  return {
    secretApiKey: secret.token,
    publishableKey: publishable.token,
    salesChannelId: channel!.id,
    stockLocationId: location!.id,
    regionId: region!.id,
    shippingOptionId: standard!.id,
    currency,
    variants,
  }
}

/**
 * Starts a real Medusa on a free loopback port, on a fresh copy of the template database, and
 * seeds it. One at a time is enough for a suite: it takes about 15 s to start on 2 busy cores.
 */
export async function startMedusa(): Promise<Medusa> {
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set (scripts/postgres.sh)')
  const timings: Record<string, number> = {}
  const database = await freshDatabase(timings)
  let server: EngineProcess | undefined
  const kill = async () => {
    if (!server) return
    server.killAll()
    await within(30_000, 'Medusa to exit', server.exited).catch(() => {})
  }
  try {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const launch = async () => {
      const started = spawnCli(
        ['start', '--host', '127.0.0.1', '--port', String(port)],
        engineEnv(database, { MEDUSA_CORS: url }),
      )
      server = started
      await seconds(timings, 'start', () => healthy(url, started, 180_000))
    }
    await launch()
    const seeded = await seconds(timings, 'seed', () => seed(url))
    return {
      url,
      ...seeded,
      timings,
      log: () => server?.output() ?? '',
      kill,
      async restart() {
        await kill()
        await launch()
      },
      async stop() {
        await kill()
        await dropDatabase(database)
      },
    }
  } catch (error) {
    await kill()
    await dropDatabase(database).catch(() => {})
    throw error
  }
}

/**
 * An order placed through the Store API as a shopper would (cart, items, address, shipping
 * method, payment session with the manual provider, complete), then its payment captured and all
 * its items fulfilled and shipped over the Admin API, so that it can be returned.
 */
export async function placeOrder(
  medusa: Medusa,
  order: { email: string; items: { sku: string; quantity: number }[]; promoCodes?: string[] },
): Promise<PlacedOrder> {
  const store = <T = Record<string, Row>>(method: string, path: string, body?: unknown) =>
    call<T>(medusa.url, method, path, { 'x-publishable-api-key': medusa.publishableKey }, body)
  const admin = <T = Record<string, Row>>(method: string, path: string, body?: unknown) =>
    call<T>(medusa.url, method, path, basicAuth(medusa.secretApiKey), body)

  const { cart } = await store('POST', '/store/carts', {
    region_id: medusa.regionId,
    sales_channel_id: medusa.salesChannelId,
    email: order.email,
    items: order.items.map((item) => ({ variant_id: variantOf(medusa, item.sku), quantity: item.quantity })),
    shipping_address: {
      first_name: 'Ada',
      last_name: 'Shopper',
      address_1: 'Hauptstraße 5',
      city: 'Berlin',
      postal_code: '10115',
      country_code: 'de',
    },
  })
  if (order.promoCodes) await store('POST', `/store/carts/${cart!.id}/promotions`, { promo_codes: order.promoCodes })
  await store('POST', `/store/carts/${cart!.id}/shipping-methods`, { option_id: medusa.shippingOptionId })
  const { payment_collection: collection } = await store('POST', '/store/payment-collections', { cart_id: cart!.id })
  await store('POST', `/store/payment-collections/${collection!.id}/payment-sessions`, {
    provider_id: 'pp_system_default',
  })
  const completed = await store<{ type: string; order?: Row; error?: unknown }>(
    'POST',
    `/store/carts/${cart!.id}/complete`,
  )
  if (completed.type !== 'order' || !completed.order)
    throw new Error(`cart not completed: ${JSON.stringify(completed)}`)
  const orderId = completed.order.id

  const { order: placed } = await admin<{
    order: {
      display_id: number
      total: number
      items: { id: string; variant_id: string; quantity: number; unit_price: number }[]
      payment_collections: { payments: { id: string }[] }[]
    }
  }>('GET', `/admin/orders/${orderId}?fields=id,display_id,total,*items,*payment_collections.payments`)
  for (const payment of placed.payment_collections.flatMap((c) => c.payments))
    await admin('POST', `/admin/payments/${payment.id}/capture`, {})
  const { order: fulfilled } = await admin<{ order: { fulfillments: Row[] } }>(
    'POST',
    `/admin/orders/${orderId}/fulfillments?fields=*fulfillments`,
    {
      location_id: medusa.stockLocationId,
      items: placed.items.map((item) => ({ id: item.id, quantity: item.quantity })),
    },
  )
  for (const fulfillment of fulfilled.fulfillments)
    await admin('POST', `/admin/orders/${orderId}/fulfillments/${fulfillment.id}/shipments`, {
      items: placed.items.map((item) => ({ id: item.id, quantity: item.quantity })),
    })
  return {
    orderId,
    displayId: placed.display_id,
    email: order.email,
    // In the order the items were asked for: Medusa lists lines made in the same instant in any order.
    lineItems: order.items.map(({ sku }) => {
      const item = placed.items.find((candidate) => candidate.variant_id === variantOf(medusa, sku))!
      return { id: item.id, variantId: item.variant_id, quantity: item.quantity, unitPrice: item.unit_price }
    }),
    total: placed.total,
  }
}

export function variantOf(medusa: Medusa, sku: string): string {
  const variant = medusa.variants[sku]
  if (!variant) throw new Error(`no variant ${sku} in the seeded shop`)
  return variant.id
}

/** The stocked quantity of a SKU's inventory item at the seeded location. */
export async function stockedQuantity(medusa: Medusa, sku: string): Promise<number> {
  const variant = medusa.variants[sku]!
  const { inventory_levels: levels } = await call<{
    inventory_levels: { location_id: string; stocked_quantity: number }[]
  }>(
    medusa.url,
    'GET',
    `/admin/inventory-items/${variant.inventoryItemId}/location-levels`,
    basicAuth(medusa.secretApiKey),
  )
  return levels.find((level) => level.location_id === medusa.stockLocationId)?.stocked_quantity ?? 0
}
