/**
 * The Orders API's keys (docs/api.md: Orders API, decision 0074): made by staff (the console, or
 * `npm run staff -- key-add`), each for one shop; revoked at once; a use noted now and then.
 */
import type { ApiKeyView } from '../../../contract/staff'
import { API_KEY_PATTERN, apiKeyDigest, apiKeyShownPrefix, newApiKeyToken } from '../domain/apiKey'
import type { Database, Queryable } from '../storage/database'
import {
  findLiveApiKey,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
  type ApiKeyRow,
} from '../storage/apiKeys'
import { audit, type Author } from './audit'
import { invalidRequest, notFound } from './refusal'

/** A key's use is written at most this often (per key, per process): a busy integration writes once a minute. */
export const LAST_USED_EVERY_MS = 60_000

/** The longest label, as the contract's NewApiKey says. */
const MAX_LABEL = 80

export const apiKeyView = (row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  label: row.label,
  prefix: row.prefix,
  created_at: new Date(row.created_at).toISOString(),
  created_by: row.created_by,
  last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
})

/** A new key of the shop: its row, and its token, which exists only in this answer (never in the audit log). */
export async function createApiKey(
  db: Database,
  shopId: string,
  label: string,
  createdBy: string,
  now: Date,
  author: Author,
): Promise<{ key: ApiKeyRow; token: string }> {
  const trimmed = label.trim()
  if (trimmed === '' || trimmed.length > MAX_LABEL) throw invalidRequest(`label: must be 1 to ${MAX_LABEL} characters`)
  const token = newApiKeyToken()
  const key = await db.transaction(async (tx) => {
    const row = await insertApiKey(
      tx,
      { shopId, label: trimmed, tokenSha256: apiKeyDigest(token), prefix: apiKeyShownPrefix(token), createdBy },
      now,
    )
    const detail = { label: row.label }
    await audit(tx, { shopId, at: now, ...author, kind: 'api_key.created', subject: row.id, detail })
    return row
  })
  return { key, token }
}

/** The key a request names. */
export interface ApiKeyUsed {
  id: string
  shop: string
  label: string
}

/**
 * The live key of `Authorization: Bearer rbk_…`, or null: a header missing or malformed, a token
 * unknown or revoked. Read from the database at each call, never cached, so a key revoked on one
 * replica is refused by all at once. The digest is looked up through the table's unique index:
 * what a lookup's time could tell is about the digest, never the token.
 */
export async function keyOfHeader(db: Queryable, header: string | undefined): Promise<ApiKeyUsed | null> {
  const match = /^Bearer (\S+)$/i.exec(header ?? '')
  const token = match?.[1]
  if (!token || !API_KEY_PATTERN.test(token)) return null
  const row = await findLiveApiKey(db, apiKeyDigest(token))
  return row ? { id: row.id, shop: row.shop_id, label: row.label } : null
}

/**
 * Notes keys' uses: once a key was noted, this process does not write for it again for a minute
 * (nor does the database, which also keeps the last write's time). Never awaited by a request.
 */
export class KeyUses {
  private readonly written = new Map<string, number>()

  constructor(
    private readonly db: Queryable,
    private readonly onError: (error: unknown) => void,
  ) {}

  note(id: string, now: Date): void {
    const at = now.getTime()
    const last = this.written.get(id)
    if (last !== undefined && at - last < LAST_USED_EVERY_MS) return
    if (this.written.size > 10_000) this.written.clear()
    this.written.set(id, at)
    touchApiKey(this.db, id, now, LAST_USED_EVERY_MS).catch(this.onError)
  }
}

/** The shop's keys as the console lists them, revoked ones included. */
export async function shopApiKeys(db: Queryable, shopId: string): Promise<ApiKeyView[]> {
  return (await listApiKeys(db, shopId)).map(apiKeyView)
}

/** Revokes one of the shop's keys at once, written to the audit log with it; false for another shop's key, or one revoked already. */
export async function revokeKey(
  db: Database,
  shopId: string,
  keyId: string,
  now: Date,
  author: Author,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const revoked = await revokeApiKey(tx, shopId, keyId, now)
    if (!revoked) return false
    const detail = { label: revoked.label }
    await audit(tx, { shopId, at: now, ...author, kind: 'api_key.revoked', subject: keyId, detail })
    return true
  })
}

/** Revokes one of the shop's keys at once; another shop's key, or one revoked already, is not found. */
export async function revokeShopApiKey(
  db: Database,
  shopId: string,
  keyId: string,
  now: Date,
  author: Author,
): Promise<void> {
  if (!(await revokeKey(db, shopId, keyId, now, author))) throw notFound('No such API key, or it was revoked already.')
}
