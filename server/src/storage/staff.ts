import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { emailKey } from '../domain/normalize'
import type { Role } from '../domain/roles'
import type { Database, Queryable } from './database'

/** A staff member as the console knows them: their e-mail, the shops they work for and their role in each. */
export interface StaffMember {
  id: string
  email: string
  shops: string[]
  roles: Record<string, Role>
}

/** A member's shops and their role in each, as two columns of a query on `staff s`. */
const SHOPS_AND_ROLES = `COALESCE((SELECT array_agg(shop_id ORDER BY shop_id) FROM staff_shops WHERE staff_id = s.id), '{}') AS shops,
            COALESCE((SELECT jsonb_object_agg(shop_id, role) FROM staff_shops WHERE staff_id = s.id), '{}') AS roles`

/** E-mails are kept and compared as verify compares a shopper's: trimmed, in lower case. */
const staffEmailKey = emailKey

/** A session's cookie value is kept only as its SHA-256: the table alone signs no one in. */
const sessionKey = (value: string) => createHash('sha256').update(value).digest('base64url')

export async function findStaffByEmail(
  db: Queryable,
  email: string,
): Promise<(StaffMember & { password_hash: string }) | null> {
  const [row] = await db.query<StaffMember & { password_hash: string }>(
    `SELECT s.id, s.email, s.password_hash, ${SHOPS_AND_ROLES}
       FROM staff s WHERE s.email = $1`,
    [staffEmailKey(email)],
  )
  return row ?? null
}

/**
 * Adds a staff member to a shop with a role (an owner unless said): a new account with this
 * password, or the shop added to an existing account (its password unchanged; a role it already
 * has there stays). Answers whether the account is new.
 */
export async function addStaff(
  db: Queryable,
  shopId: string,
  email: string,
  passwordHash: string,
  now: Date,
  role: Role = 'owner',
): Promise<{ created: boolean }> {
  const key = staffEmailKey(email)
  const inserted = await db.query<{ id: string }>(
    'INSERT INTO staff (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING RETURNING id',
    [randomUUID(), key, passwordHash, now],
  )
  await db.query(
    'INSERT INTO staff_shops (staff_id, shop_id, role) SELECT id, $2, $3 FROM staff WHERE email = $1 ON CONFLICT DO NOTHING',
    [key, shopId, role],
  )
  return { created: inserted.length > 0 }
}

/** Takes the shop from a staff member; an account left with no shop is deleted. */
export async function removeStaff(db: Queryable, shopId: string, email: string): Promise<boolean> {
  const key = staffEmailKey(email)
  const removed = await db.query(
    'DELETE FROM staff_shops WHERE shop_id = $2 AND staff_id = (SELECT id FROM staff WHERE email = $1) RETURNING staff_id',
    [key, shopId],
  )
  await db.query(
    'DELETE FROM staff s WHERE s.email = $1 AND NOT EXISTS (SELECT 1 FROM staff_shops WHERE staff_id = s.id)',
    [key],
  )
  return removed.length > 0
}

/** Sets a new password and ends every session of the account. */
export async function resetStaffPassword(db: Queryable, email: string, passwordHash: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('UPDATE staff SET password_hash = $2 WHERE email = $1 RETURNING id', [
    staffEmailKey(email),
    passwordHash,
  ])
  if (rows[0]) await db.query('DELETE FROM staff_sessions WHERE staff_id = $1', [rows[0].id])
  return rows.length > 0
}

/** A shop's staff, or everyone's when no shop is given, by e-mail. */
export async function listStaff(
  db: Queryable,
  shopId?: string,
): Promise<(StaffMember & { last_sign_in_at: Date | null })[]> {
  return db.query<StaffMember & { last_sign_in_at: Date | null }>(
    `SELECT s.id, s.email, s.last_sign_in_at, ${SHOPS_AND_ROLES}
       FROM staff s
      WHERE EXISTS (SELECT 1 FROM staff_shops ss WHERE ss.staff_id = s.id AND ($1::text IS NULL OR ss.shop_id = $1))
      ORDER BY s.email`,
    [shopId ?? null],
  )
}

/** Notes a sign-in (the Staff page shows the last one). */
export async function noteSignIn(db: Queryable, staffId: string, now: Date): Promise<void> {
  await db.query('UPDATE staff SET last_sign_in_at = $2 WHERE id = $1', [staffId, now])
}

/**
 * Sets a member's role in a shop, under a lock on the shop's staff, unless that leaves the shop
 * without an owner. Answers the role before, or why not.
 */
export async function changeRole(
  tx: Queryable,
  shopId: string,
  staffId: string,
  role: Role,
): Promise<{ before: Role } | 'missing' | 'last_owner'> {
  const rows = await tx.query<{ staff_id: string; role: Role }>(
    'SELECT staff_id, role FROM staff_shops WHERE shop_id = $1 ORDER BY staff_id FOR UPDATE',
    [shopId],
  )
  const member = rows.find((row) => row.staff_id === staffId)
  if (!member) return 'missing'
  const owners = rows.filter((row) => row.role === 'owner').length
  if (member.role === 'owner' && role !== 'owner' && owners <= 1) return 'last_owner'
  await tx.query('UPDATE staff_shops SET role = $3 WHERE shop_id = $1 AND staff_id = $2', [shopId, staffId, role])
  return { before: member.role }
}

/**
 * Takes the shop from a member, under a lock on the shop's staff, unless they are its last owner;
 * their sessions end, and an account left with no shop is deleted. Answers their e-mail and role, or why not.
 */
export async function removeFromShop(
  tx: Queryable,
  shopId: string,
  staffId: string,
): Promise<{ email: string; role: Role } | 'missing' | 'last_owner'> {
  const rows = await tx.query<{ staff_id: string; role: Role; email: string }>(
    `SELECT ss.staff_id, ss.role, s.email FROM staff_shops ss JOIN staff s ON s.id = ss.staff_id
      WHERE ss.shop_id = $1 ORDER BY ss.staff_id FOR UPDATE OF ss`,
    [shopId],
  )
  const member = rows.find((row) => row.staff_id === staffId)
  if (!member) return 'missing'
  if (member.role === 'owner' && rows.filter((row) => row.role === 'owner').length <= 1) return 'last_owner'
  await tx.query('DELETE FROM staff_shops WHERE shop_id = $1 AND staff_id = $2', [shopId, staffId])
  await tx.query('DELETE FROM staff_sessions WHERE staff_id = $1', [staffId])
  await tx.query(
    'DELETE FROM staff s WHERE s.id = $1 AND NOT EXISTS (SELECT 1 FROM staff_shops WHERE staff_id = s.id)',
    [staffId],
  )
  return { email: member.email, role: member.role }
}

export async function hasStaff(db: Queryable, shopId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM staff_shops WHERE shop_id = $1 LIMIT 1', [shopId])).length > 0
}

/**
 * Starts a session; answers the cookie's value (32 random bytes), which is stored only hashed.
 * Sessions past their time, of anyone, go as new ones begin: a browser that never came back
 * leaves nothing behind for long.
 */
export async function startSession(
  db: Queryable,
  staffId: string,
  now: Date,
  limits: { idleMs: number; maxMs: number },
): Promise<string> {
  await db.query('DELETE FROM staff_sessions WHERE last_seen_at < $1 OR created_at < $2', [
    new Date(now.getTime() - limits.idleMs),
    new Date(now.getTime() - limits.maxMs),
  ])
  const value = randomBytes(32).toString('base64url')
  await db.query('INSERT INTO staff_sessions (id_hash, staff_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)', [
    sessionKey(value),
    staffId,
    now,
  ])
  return value
}

interface SessionRow extends StaffMember {
  created_at: Date
  last_seen_at: Date
}

async function readSession(db: Queryable, key: string): Promise<SessionRow | null> {
  const [row] = await db.query<SessionRow>(
    `SELECT s.id, s.email, ss.created_at, ss.last_seen_at, ${SHOPS_AND_ROLES}
       FROM staff_sessions ss JOIN staff s ON s.id = ss.staff_id WHERE ss.id_hash = $1`,
    [key],
  )
  return row ?? null
}

/**
 * Sessions read, per database: on the embedded engine, kept until this process next writes
 * anything (docs/decisions/0048-session-cache-pglite.md).
 */
const sessions = new WeakMap<Database, Map<string, { writes: number; row: SessionRow }>>()
/** Sessions remembered at most per database. */
const SESSION_CACHE_SIZE = 1_000

/**
 * A session's row as the database holds it now. On a database this process has to itself
 * (PGlite), a row read is remembered until this process next writes anything: every way a session
 * ends or its account changes (sign-out, the idle or age limit, a reset, a removal) is a write, so
 * nothing remembered outlives it. On a shared server (PostgreSQL, other replicas writing) every
 * call reads. Unknown sessions are never remembered, so guessing fills nothing.
 */
async function findSession(db: Database, key: string): Promise<SessionRow | null> {
  if (!db.exclusive) return readSession(db, key)
  let cache = sessions.get(db)
  if (!cache) sessions.set(db, (cache = new Map<string, { writes: number; row: SessionRow }>()))
  const known = cache.get(key)
  if (known && known.writes === db.writeCount()) return known.row
  // Read before the query: a write that lands meanwhile (a sign-out) makes this entry stale at once.
  const writes = db.writeCount()
  const row = await readSession(db, key)
  if (!row) cache.delete(key)
  else {
    if (cache.size >= SESSION_CACHE_SIZE) cache.clear()
    cache.set(key, { writes, row })
  }
  return row
}

/**
 * The staff member of a session still in use: seen within `idleMs` (each use moves it on) and
 * begun within `maxMs`. A session past either is deleted.
 */
export async function useSession(
  db: Database,
  value: string,
  now: Date,
  limits: { idleMs: number; maxMs: number },
): Promise<StaffMember | null> {
  const key = sessionKey(value)
  const row = await findSession(db, key)
  if (!row) return null
  const idle = now.getTime() - new Date(row.last_seen_at).getTime() > limits.idleMs
  const old = now.getTime() - new Date(row.created_at).getTime() > limits.maxMs
  if (idle || old) {
    await endSession(db, value)
    return null
  }
  // Written at most once a minute: a page of the console asks several things at once.
  if (now.getTime() - new Date(row.last_seen_at).getTime() > 60_000)
    await db.query('UPDATE staff_sessions SET last_seen_at = $2 WHERE id_hash = $1', [key, now])
  return { id: row.id, email: row.email, shops: [...row.shops], roles: { ...row.roles } }
}

export async function endSession(db: Queryable, value: string): Promise<void> {
  await db.query('DELETE FROM staff_sessions WHERE id_hash = $1', [sessionKey(value)])
}

/** How many wrong passwords lock an account, within what window, and for how long. */
export const LOCKOUT = { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const

/** Until when sign-in for this e-mail is refused, or null. */
export async function lockedUntil(db: Queryable, email: string, now: Date): Promise<Date | null> {
  const [row] = await db.query<{ locked_until: Date | null }>(
    'SELECT locked_until FROM sign_in_failures WHERE email = $1',
    [staffEmailKey(email)],
  )
  const until = row?.locked_until ? new Date(row.locked_until) : null
  return until && until > now ? until : null
}

/**
 * The row `f` starts again: an unlocked count past its window, or a lock past its time ($2 is now,
 * $3 the window's start). A lock outlasts the window it was counted in.
 */
const STALE = '((f.locked_until IS NULL AND f.first_at < $3) OR f.locked_until <= $2)'

/**
 * Takes one of the e-mail's ten tries in the window (known or not), before its password is
 * checked: the try counts as a wrong password until a right one clears the count, and the tenth
 * locks the e-mail. Answers the try's number in the window (the tenth locks the e-mail), or null,
 * taking nothing, when the e-mail is locked. One statement: a burst on one process, or on every
 * replica at once, gets at most ten passwords checked.
 */
export async function reserveSignInAttempt(db: Queryable, email: string, now: Date): Promise<number | null> {
  const key = staffEmailKey(email)
  const windowStart = new Date(now.getTime() - LOCKOUT.windowMs)
  const taken = await db.query<{ failures: number }>(
    `INSERT INTO sign_in_failures AS f (email, failures, first_at, locked_until) VALUES ($1, 1, $2, NULL)
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN ${STALE} THEN 1 ELSE f.failures + 1 END,
       first_at = CASE WHEN ${STALE} THEN $2 ELSE f.first_at END,
       locked_until = CASE WHEN ${STALE} THEN NULL WHEN f.failures + 1 >= $4 THEN $5::timestamptz ELSE NULL END
     WHERE ${STALE} OR (f.locked_until IS NULL AND f.failures < $4)
     RETURNING failures`,
    [key, now, windowStart, LOCKOUT.failures, new Date(now.getTime() + LOCKOUT.lockMs)],
  )
  // Counts past their window and locks past their time say nothing any more: an attacker trying
  // a new e-mail each time leaves rows for 15 minutes, not for ever.
  await db.query(
    'DELETE FROM sign_in_failures WHERE first_at < $1 AND (locked_until IS NULL OR locked_until < $2) AND email <> $3',
    [windowStart, now, key],
  )
  return taken[0] ? Number(taken[0].failures) : null
}

/** A right password clears the count, its own try with it. */
export async function clearSignInFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE email = $1', [staffEmailKey(email)])
}

/** A member's e-mail by id. */
export async function staffEmail(db: Queryable, staffId: string): Promise<string | null> {
  const [row] = await db.query<{ email: string }>('SELECT email FROM staff WHERE id = $1', [staffId])
  return row?.email ?? null
}

/**
 * A member of the shop, reset: their password stops working (a hash argon2 cannot read signs no
 * one in) and their sessions end. Answers their e-mail and role in the shop, or null for no such member.
 */
export async function resetMember(
  tx: Queryable,
  shopId: string,
  staffId: string,
): Promise<{ email: string; role: Role } | null> {
  const [member] = await tx.query<{ email: string; role: Role }>(
    `SELECT s.email, ss.role FROM staff s JOIN staff_shops ss ON ss.staff_id = s.id
      WHERE s.id = $1 AND ss.shop_id = $2 FOR UPDATE OF s`,
    [staffId, shopId],
  )
  if (!member) return null
  await tx.query("UPDATE staff SET password_hash = '' WHERE id = $1", [staffId])
  await tx.query('DELETE FROM staff_sessions WHERE staff_id = $1', [staffId])
  return member
}

/**
 * Sets an account's password from a link (an invite or a reset), making the account when there is
 * none and adding the shop with the role unless it has it already; every session of the account
 * ends. For a reset (`mustBeStaff`), the account must still work for the shop: null otherwise.
 */
export async function setPasswordFromLink(
  tx: Queryable,
  link: { shopId: string; email: string; role: Role; mustBeStaff: boolean },
  passwordHash: string,
  now: Date,
): Promise<StaffMember | null> {
  const key = staffEmailKey(link.email)
  const [existing] = await tx.query<{ id: string; of_shop: boolean }>(
    'SELECT id, EXISTS (SELECT 1 FROM staff_shops WHERE staff_id = s.id AND shop_id = $2) AS of_shop FROM staff s WHERE email = $1',
    [key, link.shopId],
  )
  if (link.mustBeStaff && !existing?.of_shop) return null
  const id = existing?.id ?? randomUUID()
  if (existing) await tx.query('UPDATE staff SET password_hash = $2 WHERE id = $1', [id, passwordHash])
  else
    await tx.query('INSERT INTO staff (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)', [
      id,
      key,
      passwordHash,
      now,
    ])
  await tx.query(
    'INSERT INTO staff_shops (staff_id, shop_id, role) VALUES ($1, $2, $3) ON CONFLICT (staff_id, shop_id) DO NOTHING',
    [id, link.shopId, link.role],
  )
  await tx.query('DELETE FROM staff_sessions WHERE staff_id = $1', [id])
  await noteSignIn(tx, id, now)
  const [member] = await tx.query<StaffMember>(
    `SELECT s.id, s.email, ${SHOPS_AND_ROLES} FROM staff s WHERE s.id = $1`,
    [id],
  )
  return member ?? null
}
