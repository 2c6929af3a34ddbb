/**
 * Runs the Portal API (and, with --static dir, the built portal) on one port. Its settings come
 * from the environment through settings.ts, each with its default (docs/settings.md).
 */
import './production'
import { buildApp } from './app'
import { seedDemoShops } from './import/demoShops'
import { readSettings } from './settings'
import { claimDataDir } from './storage/dataDirLock'
import { randomBytes } from 'node:crypto'
import { hashPassword } from './domain/passwords'
import { openDatabase, type Database } from './storage/database'
import { addStaff, listStaff } from './storage/staff'
import { migrate } from './storage/migrations'
import { findReturnIdsOfOrder } from './storage/returns'
import { loadSecret } from './storage/secret'
import { signStatus } from './domain/token'

function staticDirFromArgs(args: string[]): string | undefined {
  const at = args.indexOf('--static')
  return at >= 0 ? (args[at + 1] ?? 'dist') : undefined
}

async function main() {
  // Every setting is checked before the database is opened: a wrong one ends the start cleanly.
  const settings = readSettings()
  const databaseUrl = settings.DATABASE_URL
  const dataDir = databaseUrl ? undefined : settings.DATA_DIR
  const release = dataDir === undefined ? () => {} : await claimDataDir(dataDir)

  const db = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: settings.DATA_DIR })
  await migrate(db)
  const seeded = await seedDemoShops(db)
  const staffSignIn = await demoStaff(db, seeded, settings.DEMO_STAFF_PASSWORD)
  const secret = await loadSecret(db, settings.TOKEN_SECRET)
  const staticDir = staticDirFromArgs(process.argv.slice(2))
  const app = await buildApp({
    db,
    secret,
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(staticDir === undefined ? {} : { staticDir }),
    ...(settings.ADMIN_TOKEN === undefined ? {} : { adminToken: settings.ADMIN_TOKEN }),
    trustProxy: settings.TRUST_PROXY,
    portalOrigin: settings.PORTAL_ORIGIN,
    delivery: { smtpUrl: settings.SMTP_URL, allowPrivateNetworks: settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS },
    limits: {
      verifyPerClient: settings.VERIFY_RATE_LIMIT_PER_IP,
      verifyPerOrder: settings.VERIFY_RATE_LIMIT_PER_ORDER,
      verifyFailureFloorMs: settings.VERIFY_FAILURE_FLOOR_MS,
    },
    logger: { level: settings.LOG_LEVEL },
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

  await app.listen({ port: settings.PORT, host: settings.HOST })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : settings.PORT
  if (seeded.length > 0) app.log.info({ shops: seeded }, 'loaded the demo shops')
  const storage = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`
  // The demo's tracked return (#1007, in transit): its status link is signed with this install's secret.
  const [demoReturn] = await findReturnIdsOfOrder(db, 'demo', '#1007')
  const demoStatus = demoReturn
    ? `A demo return in transit: http://demo.localhost:${port}/status/${demoReturn}#${signStatus(secret, demoReturn)}\n`
    : ''
  const staffLine = staffSignIn ? `Staff sign-in: http://demo.localhost:${port}/admin  ${staffSignIn}\n` : ''
  const emailLine = settings.SMTP_URL
    ? 'E-mails to shoppers go out through SMTP_URL.\n'
    : `E-mails to shoppers are kept in the outbox (no SMTP_URL): read them in the back office, http://demo.localhost:${port}/admin/emails\n`
  process.stdout.write(
    `\nRebound is running (${storage}).\nOpen http://demo.localhost:${port}/  (or http://acme.localhost:${port}/)\n${demoStatus}${staffLine}${emailLine}\n`,
  )
}

const DEMO_STAFF = 'staff@demo.example'

/**
 * The demo's back-office account: made with the demo shops, at the first start, with a generated
 * password that is printed then and never kept in the clear (DEMO_STAFF_PASSWORD sets it instead).
 * Answers the sign-in line's account part, or null when the demo shop has no such account.
 */
async function demoStaff(db: Database, seeded: string[], password: string | undefined): Promise<string | null> {
  if (seeded.includes('demo')) {
    const chosen = password ?? randomBytes(12).toString('base64url')
    await addStaff(db, 'demo', DEMO_STAFF, await hashPassword(chosen), new Date())
    return `${DEMO_STAFF} / ${password === undefined ? chosen : '(DEMO_STAFF_PASSWORD)'}`
  }
  const staff = await listStaff(db, 'demo')
  if (!staff.some((member) => member.email === DEMO_STAFF)) return null
  return `${DEMO_STAFF}  (password printed at the first start; a new one: npm run staff -- reset ${DEMO_STAFF})`
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
