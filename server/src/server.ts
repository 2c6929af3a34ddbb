/**
 * Runs the Portal API (and, with --static dir, the built portal) on one port:
 *   PORT (8080), HOST (0.0.0.0), DATA_DIR (./data, PGlite) or DATABASE_URL (a PostgreSQL server),
 *   TOKEN_SECRET (else kept in the database), ADMIN_TOKEN (enables POST /admin/shops),
 *   VERIFY_RATE_LIMIT_PER_IP, VERIFY_RATE_LIMIT_PER_ORDER (per minute), TRUST_PROXY (trustProxy.ts), LOG_LEVEL.
 */
import { buildApp } from './app'
import { seedDemoShops } from './import/demoShops'
import { claimDataDir } from './storage/dataDirLock'
import { openDatabase } from './storage/database'
import { migrate } from './storage/migrations'
import { findReturnIdsOfOrder } from './storage/returns'
import { loadSecret } from './storage/secret'
import { signStatus } from './domain/token'
import { trustProxyFrom } from './trustProxy'

function numberFromEnv(name: string): number | undefined {
  const value = process.env[name]
  if (value === undefined || value === '') return undefined
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a number, not ${JSON.stringify(value)}`)
  return parsed
}

function staticDirFromArgs(args: string[]): string | undefined {
  const at = args.indexOf('--static')
  return at >= 0 ? (args[at + 1] ?? 'dist') : undefined
}

async function main() {
  // Every setting is checked before the database is opened: a wrong one ends the start cleanly.
  const port = numberFromEnv('PORT') ?? 8080
  const trustProxy = trustProxyFrom(process.env.TRUST_PROXY)
  const limits = {
    verifyPerClient: numberFromEnv('VERIFY_RATE_LIMIT_PER_IP'),
    verifyPerOrder: numberFromEnv('VERIFY_RATE_LIMIT_PER_ORDER'),
    verifyFailureFloorMs: numberFromEnv('VERIFY_FAILURE_FLOOR_MS'),
  }
  const host = process.env.HOST ?? '0.0.0.0'
  const databaseUrl = process.env.DATABASE_URL || undefined
  const dataDir = process.env.DATA_DIR || './data'
  const release = databaseUrl ? () => {} : claimDataDir(dataDir)

  const db = await openDatabase({ databaseUrl, dataDir })
  await migrate(db)
  const seeded = await seedDemoShops(db)
  const secret = await loadSecret(db, process.env.TOKEN_SECRET)
  const app = await buildApp({
    db,
    secret,
    staticDir: staticDirFromArgs(process.argv.slice(2)),
    adminToken: process.env.ADMIN_TOKEN || undefined,
    trustProxy,
    limits,
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'stopping')
    await app.close()
    await db.close()
    release()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))

  await app.listen({ port, host })
  if (seeded.length > 0) app.log.info({ shops: seeded }, 'loaded the demo shops')
  const storage = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`
  // The demo's tracked return (#1007, in transit): its status link is signed with this install's secret.
  const [demoReturn] = await findReturnIdsOfOrder(db, 'demo', '#1007')
  const demoStatus = demoReturn ? `A demo return in transit: http://demo.localhost:${port}/status/${demoReturn}#${signStatus(secret, demoReturn)}\n` : ''
  process.stdout.write(`\nRebound is running (${storage}).\nOpen http://demo.localhost:${port}/  (or http://acme.localhost:${port}/)\n${demoStatus}\n`)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
