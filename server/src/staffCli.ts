/**
 * npm run staff -- add <shop> <email> [--role <role>] | remove <shop> <email> | reset <email> | list [shop]
 *                | key-add <shop> <label> | keys <shop> | key-revoke <shop> <id>
 *                | connection <shop> | connect <shop> medusa <url> [--sales-channel …] … | disconnect <shop>
 * Manages the back office's staff accounts, the shops' Orders API keys and store connections in DATABASE_URL or the
 * PGlite directory DATA_DIR (docs/back-office.md). A new password comes from STAFF_PASSWORD, or is
 * asked for.
 */
import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { hashPassword, passwordProblem } from './domain/passwords'
import { readSettings } from './settings'
import { claimDataDir } from './storage/dataDirLock'
import { openDatabase, type Database } from './storage/database'
import { migrate } from './storage/migrations'
import { addStaff, listStaff, removeStaff, resetStaffPassword } from './storage/staff'
import { ROLES, type Role } from './domain/roles'
import { createApiKey, revokeKey, shopApiKeys } from './services/apiKeys'
import { CLI_AUTHOR } from './services/audit'
import { Value } from '@sinclair/typebox/value'
import { SetStoreConnection, type StoreConnectionView } from '../../contract/staff'
import { loadSecret } from './storage/secret'
import { deleteStoreConnection } from './storage/storeConnections'
import { readConnection, setConnection } from './services/storeConnection'

const USAGE = `Usage:
  npm run staff -- add <shop> <email> [--role owner|admin|agent|warehouse]
                                           a staff member of the shop (a new account, or the shop added to one),
                                           an owner unless --role says otherwise
  npm run staff -- remove <shop> <email>   takes the shop from them (the account goes with its last shop)
  npm run staff -- reset <email>           a new password; every session of the account ends
  npm run staff -- list [shop]             the staff, of one shop or of all
  npm run staff -- key-add <shop> <label>  an Orders API key of the shop; its token is printed this once
  npm run staff -- keys <shop>             the shop's API keys (never their tokens)
  npm run staff -- key-revoke <shop> <id>  revokes the key: every call with it is refused at once
  npm run staff -- connection <shop>       the shop's store connection (never its key)
  npm run staff -- connect <shop> medusa <url> --sales-channel <id> --stock-location <id> [--region <id>]
                                           connects the shop's Medusa; its secret key is read from stdin
  npm run staff -- disconnect <shop>       removes the shop's store connection
A new password is read from STAFF_PASSWORD, or asked for. DATA_DIR or DATABASE_URL picks the database.`

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Reads a line without echoing it (a password typed at a terminal). */
function askHidden(question: string): Promise<string> {
  let muted = false
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk)
      done()
    },
  })
  const rl = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY })
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close()
      process.stdout.write('\n')
      resolve(answer)
    })
    muted = true
  })
}

async function newPassword(): Promise<string> {
  const given = process.env.STAFF_PASSWORD
  const password = given !== undefined && given !== '' ? given : await askHidden('New password: ')
  const problem = passwordProblem(password)
  if (problem) throw new Error(`Not changed: ${problem}.`)
  return password
}

async function shopMustExist(db: Database, shop: string) {
  const [known] = await db.query('SELECT 1 FROM shops WHERE id = $1', [shop])
  if (!known) throw new Error(`There is no shop ${shop}: import it first (npm run import-shop).`)
}

/** The Orders API keys' commands (docs/api.md: Orders API); null for another command. */
async function runKeys(db: Database, command: string | undefined, rest: string[], now: Date): Promise<number | null> {
  if (command === 'key-add' && rest.length >= 2) {
    const [shop, ...words] = rest as [string, ...string[]]
    await shopMustExist(db, shop)
    const { key, token } = await createApiKey(db, shop, words.join(' '), 'cli', now, CLI_AUTHOR)
    console.log(`API key ${key.id} "${key.label}" of ${shop}. Its token, shown this once:\n${token}`)
    return 0
  }
  if (command === 'keys' && rest.length === 1) {
    const keys = await shopApiKeys(db, rest[0]!)
    if (keys.length === 0) console.log(`Shop ${rest[0]} has no API keys.`)
    for (const key of keys)
      console.log(
        [
          key.id,
          `${key.prefix}…`,
          JSON.stringify(key.label),
          `made ${key.created_at} by ${key.created_by}`,
          key.last_used_at ? `last used ${key.last_used_at}` : 'never used',
          ...(key.revoked_at ? [`revoked ${key.revoked_at}`] : []),
        ].join('  '),
      )
    return 0
  }
  if (command === 'key-revoke' && rest.length === 2) {
    const [shop, id] = rest as [string, string]
    const revoked = await revokeKey(db, shop, id, now, CLI_AUTHOR)
    console.log(
      revoked ? `API key ${id} of ${shop} is revoked.` : `${shop} has no live API key ${id}; nothing changed.`,
    )
    return revoked ? 0 : 1
  }
  return null
}

/** Reads the engine's secret key: typed without echo at a terminal, else stdin's first line. */
async function readEngineKey(): Promise<string> {
  if (process.stdin.isTTY) return (await askHidden('Secret API key: ')).trim()
  let text = ''
  for await (const chunk of process.stdin) text += String(chunk)
  return (text.split(/\r?\n/)[0] ?? '').trim()
}

const printConnection = (shop: string, connection: StoreConnectionView | null) => {
  if (!connection) return console.log(`Shop ${shop} has no store connection.`)
  const test = connection.last_test
  console.log(
    [
      `${connection.engine} ${connection.url}`,
      `  sales channel ${connection.sales_channel_id}, stock location ${connection.stock_location_id}${connection.region_id ? `, region ${connection.region_id}` : ''}`,
      `  key ${connection.api_key_readable ? 'set' : 'set, but not readable with this server secret: connect again'}`,
      `  set ${connection.updated_at} by ${connection.updated_by}`,
      `  last test: ${
        test
          ? `${
              test.ok
                ? 'all ok'
                : test.checks
                    .filter((line) => line.outcome !== 'ok')
                    .map((line) => `${line.check} ${line.outcome}`)
                    .join(', ')
            } (${test.at})`
          : 'never'
      }`,
    ].join('\n'),
  )
}

/** The store connection's commands (docs/back-office.md: Store connection); null for another command. */
async function runConnection(db: Database, command: string | undefined, rest: string[], now: Date) {
  if (command !== 'connection' && command !== 'connect' && command !== 'disconnect') return null
  const source = { db, secret: await loadSecret(db, readSettings().TOKEN_SECRET) }
  if (command === 'connection' && rest.length === 1) {
    printConnection(rest[0]!, await readConnection(source, rest[0]!))
    return 0
  }
  if (command === 'disconnect' && rest.length === 1) {
    const removed = await deleteStoreConnection(db, rest[0]!)
    console.log(removed ? `Shop ${rest[0]} has no store connection now.` : `Shop ${rest[0]} had no store connection.`)
    return removed ? 0 : 1
  }
  if (command === 'connect' && rest.length >= 3 && rest.length % 2 === 1) {
    const [shop, engine, url, ...options] = rest as [string, string, string, ...string[]]
    const flags = new Map<string, string>()
    for (let at = 0; at < options.length; at += 2) flags.set(options[at]!, options[at + 1]!)
    const unknown = [...flags.keys()].filter(
      (flag) => !['--sales-channel', '--stock-location', '--region'].includes(flag),
    )
    if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(', ')}.`)
    await shopMustExist(db, shop)
    const body = {
      engine,
      url,
      api_key: await readEngineKey(),
      sales_channel_id: flags.get('--sales-channel') ?? '',
      stock_location_id: flags.get('--stock-location') ?? '',
      ...(flags.has('--region') ? { region_id: flags.get('--region') } : {}),
    }
    if (!Value.Check(SetStoreConnection, body)) {
      // Named by field, never with the key's value.
      const fields = [...new Set([...Value.Errors(SetStoreConnection, body)].map((error) => error.path.slice(1)))]
      throw new Error(`Not connected: ${fields.join(', ')} ${fields.length === 1 ? 'is' : 'are'} missing or not valid.`)
    }
    printConnection(shop, await setConnection(source, shop, body, 'cli', now, CLI_AUTHOR))
    return 0
  }
  return null
}

async function run(db: Database, args: string[]): Promise<number> {
  const [command, ...rest] = args
  const now = new Date()
  const keys = (await runKeys(db, command, rest, now)) ?? (await runConnection(db, command, rest, now))
  if (keys !== null) return keys
  if (command === 'list' && rest.length <= 1) {
    const staff = await listStaff(db, rest[0])
    if (staff.length === 0) console.log(rest[0] ? `Shop ${rest[0]} has no staff.` : 'No staff yet.')
    for (const member of staff) console.log(`${member.email}  ${member.shops.join(', ')}`)
    return 0
  }
  let role: Role = 'owner'
  if (command === 'add' && rest.length === 4 && rest[2] === '--role') {
    const named = rest[3] as Role
    if (!ROLES.includes(named)) throw new Error(`${named} is not a role: ${ROLES.join(', ')}.`)
    role = named
    rest.splice(2, 2)
  }
  if ((command === 'add' || command === 'remove') && rest.length === 2) {
    const [shop, email] = rest as [string, string]
    if (!EMAIL.test(email)) throw new Error(`${email} is not an e-mail address.`)
    if (command === 'remove') {
      const removed = await removeStaff(db, shop, email)
      console.log(
        removed ? `${email} no longer works for ${shop}.` : `${email} is not staff of ${shop}; nothing changed.`,
      )
      return removed ? 0 : 1
    }
    await shopMustExist(db, shop)
    const [existing] = await db.query('SELECT 1 FROM staff WHERE email = lower(trim($1))', [email])
    const hash = existing ? '' : await hashPassword(await newPassword())
    const { created } = await addStaff(db, shop, email, hash, now, role)
    console.log(
      created
        ? `${email} can sign in to ${shop}'s back office (${role}).`
        : `${email} (an existing account) now works for ${shop} too (${role}, unless they already did).`,
    )
    return 0
  }
  if (command === 'reset' && rest.length === 1) {
    const email = rest[0]!
    const hash = await hashPassword(await newPassword())
    const done = await resetStaffPassword(db, email, hash)
    console.log(done ? `${email} has a new password; their sessions have ended.` : `There is no account ${email}.`)
    return done ? 0 : 1
  }
  console.error(USAGE)
  return 2
}

async function main(args: string[]): Promise<number> {
  const { DATABASE_URL: databaseUrl, DATA_DIR: dataDir } = readSettings()
  let release = () => {}
  if (!databaseUrl) {
    try {
      release = await claimDataDir(dataDir, { waitMs: 0 })
    } catch {
      throw new Error(
        `The server is running on ${dataDir}, and PGlite lets one process use it at a time: stop the server, then run this again. (On PostgreSQL, with DATABASE_URL, staff can be managed beside running servers.)`,
      )
    }
  }
  const db = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir })
  try {
    await migrate(db)
    return await run(db, args)
  } finally {
    await db.close()
    release()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
