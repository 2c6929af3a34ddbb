/**
 * The outbox (docs/events.md): e-mails and webhooks written in the transaction of the change they
 * tell of, then taken by the delivery loop, one process at a time, in order per return and target.
 */
import { randomUUID } from 'node:crypto'
import type { RefundBreakdown, ReturnOrder, ReturnStatus } from '../../../contract/api'
import { eventsOf, type EmailEvent, type WebhookEvent } from '../domain/events'
import { engineActionsDue, type EngineAction, type WrittenAction } from '../domain/engineActions'
import type { Queryable } from './database'
import { findInspections } from './inspections'
import { findReturnedLines } from './returnStates'
import { issueStoreCredit, type StoreCredit } from './storeCredits'
import { enabledEndpoints } from './webhookEndpoints'

export type Channel = 'email' | 'webhook' | 'engine'
export type OutboxState = 'pending' | 'delivered' | 'kept' | 'failed'

/** What an e-mail row carries until it is rendered: what happened, and the shopper's language and portal. */
export interface EmailPayload extends EmailEvent {
  language: string
  /** the portal's address the shopper submitted from: the e-mail's links start with it */
  origin: string | null
  order_name: string
  status: ReturnStatus
  /** the deal as the return was priced; absent from rows written before it was kept */
  deal?: EmailDeal
  /**
   * the engine's exchanges written with a `new_item_sent` e-mail, by their rows' ids: the e-mail
   * waits for them and names what they made (decision 0078); absent otherwise
   */
  engine_actions?: string[]
  /** filled in when the e-mail is rendered: the ids the engine gave those exchanges */
  engine_references?: string[]
}

/** What an e-mail says of the deal beyond the status page's view (server/src/email). */
export interface EmailDeal {
  /** when the change was written (ISO 8601): a parcel's send-by day counts from it */
  at: string
  /** per line: the variant bought and the one asked for in exchange, to name them by their options */
  variants: Record<string, { variant_id: string | null; exchange_variant_id: string | null }>
  /** the return's breakdown as priced: the fee, or that it was waived; null for a return imported without one */
  breakdown: RefundBreakdown | null
}

/** An engine row's body: the action to carry out in the shop's commerce engine (docs/commerce.md). */
export interface EnginePayload {
  action: EngineAction
}

/** A webhook row's body, the Standard Webhooks envelope. */
export interface WebhookPayload {
  type: WebhookEvent
  timestamp: string
  data: ReturnStatus
}

/** An e-mail as rendered when it was delivered or kept. */
export interface RenderedEmail {
  from: string
  reply_to: string | null
  to: string
  subject: string
  html: string
  text: string
}

export interface OutboxRow {
  seq: string
  id: string
  shop_id: string
  return_id: string | null
  event: string
  channel: Channel
  target: string
  recipient: string | null
  payload: EmailPayload | WebhookPayload | EnginePayload
  created_at: Date
  state: OutboxState
  attempts: number
  due_at: Date
  delivered_at: Date | null
  last_error: string | null
  message: RenderedEmail | null
  /** an engine action's: the id of what it made in the engine */
  reference: string | null
}

const COLUMNS =
  'seq, id, shop_id, return_id, event, channel, target, recipient, payload, created_at, state, attempts, due_at, delivered_at, last_error, message, reference'

export const messageId = () => `msg_${randomUUID().replaceAll('-', '')}`

/** The shopper and the portal of a return, as the e-mails need them. */
interface ReturnContact {
  shop_id: string
  email: string
  order_name: string
  language: string | null
  portal_origin: string | null
  return_order: ReturnOrder | null
  line_items: { id: string; variant_id?: string | null }[]
  /** the order's id in the shop's commerce engine; null for an order not read from one */
  engine_order_id: string | null
}

/**
 * Writes the e-mails and webhooks of one change of a return, in the caller's transaction (the
 * change and its events are committed together or not at all). `before` is null for a new return.
 */
export async function writeReturnEvents(
  tx: Queryable,
  returnId: string,
  before: ReturnStatus | null,
  changed: ReturnStatus,
  at: Date,
): Promise<void> {
  const [contact] = await tx.query<ReturnContact>(
    `SELECT r.shop_id, o.email_key AS email, o.name AS order_name, r.language, r.portal_origin, r.return_order,
            o.line_items, o.engine_order_id
       FROM returns r JOIN orders o ON o.id = r.order_id WHERE r.id = $1`,
    [returnId],
  )
  if (!contact) return
  const { webhooks, emails } = eventsOf(before, changed)
  let after = changed
  // The change that refunds a return as store credit issues its code; every event of it carries
  // the code, and the status page reads it from then on (decision 0064).
  if (webhooks.includes('return.refunded') && after.refund?.method === 'store_credit')
    after = withStoreCredit(
      after,
      await issueStoreCredit(tx, { returnId, shopId: contact.shop_id, amount: after.refund.amount, at }),
    )
  // The engine's actions first: the e-mail of an exchange released now waits for its exchange.
  const actions =
    contact.engine_order_id === null
      ? []
      : await writeEngineActions(tx, returnId, { ...contact, engine_order_id: contact.engine_order_id }, after, at)
  const exchanges = actions.filter((entry) => entry.action.kind === 'exchange').map((entry) => entry.id)
  const rows: unknown[][] = []
  const deal = emails.length > 0 ? dealOf(contact, at) : undefined
  for (const email of emails) {
    const payload: EmailPayload = {
      ...email,
      language: contact.language ?? 'en',
      origin: contact.portal_origin,
      order_name: contact.order_name,
      status: after,
      ...(deal ? { deal } : {}),
      ...(email.kind === 'new_item_sent' && exchanges.length > 0 ? { engine_actions: exchanges } : {}),
    }
    rows.push([messageId(), contact.shop_id, returnId, `email.${email.kind}`, 'email', 'email', contact.email, payload])
  }
  const endpoints = await enabledEndpoints(tx, contact.shop_id)
  for (const type of webhooks) {
    const payload: WebhookPayload = { type, timestamp: at.toISOString(), data: after }
    for (const endpoint of endpoints.filter((candidate) => candidate.events.includes(type)))
      rows.push([messageId(), contact.shop_id, returnId, type, 'webhook', endpoint.id, null, payload])
  }
  if (rows.length === 0) return
  // In one statement, in the order written (their seq follows it, as delivery does).
  await tx.query(
    `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, recipient, payload, created_at, due_at)
     SELECT row.id, row.shop_id, row.return_id, row.event, row.channel, row.target, row.recipient, row.payload::jsonb, $9, $9
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            WITH ORDINALITY AS row (id, shop_id, return_id, event, channel, target, recipient, payload, at)
      ORDER BY row.at`,
    [
      ...Array.from({ length: 7 }, (_, column) => rows.map((row) => row[column])),
      rows.map((row) => JSON.stringify(row[7])),
      at,
    ],
  )
}

/**
 * Writes what a return of an engine's order still asks of the engine (engineActionsDue, decision
 * 0078), after the e-mails and webhooks of the same change and in its transaction. The callers
 * hold the return's lock (or just made it), so the actions written before are all there is.
 */
async function writeEngineActions(
  tx: Queryable,
  returnId: string,
  contact: ReturnContact & { engine_order_id: string },
  status: ReturnStatus,
  at: Date,
): Promise<WrittenAction[]> {
  // One after another: in a transaction they share one connection.
  const lines = await findReturnedLines(tx, returnId)
  const inspections = await findInspections(tx, returnId)
  const written = await writtenActions(tx, returnId)
  const input = {
    order_id: contact.engine_order_id,
    status,
    lines,
    answer: contact.return_order,
    inspections: inspections.map((row) => ({
      line_item_id: row.line_item_id,
      arrived: row.condition !== 'missing',
      restock: row.disposition === 'restock',
      // A row of one unit (decision 0085); unit 0 stands for every unit of its line.
      ...(row.unit > 0 ? { quantity: 1 } : {}),
    })),
    email: contact.email,
  }
  // A receipt names the row of its request: each action is written before the next is derived.
  const before = written.length
  for (let due = engineActionsDue(input, written); due.length > 0; due = engineActionsDue(input, written)) {
    const action = due[0]!
    written.push({ id: await writeEngineAction(tx, { shopId: contact.shop_id, returnId, action }, at), action })
  }
  return written.slice(before)
}

/** What the engine actions of these rows made there, as far as they are done (decision 0078). */
export async function engineReferences(db: Queryable, ids: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ reference: string }>(
    "SELECT reference FROM outbox WHERE id = ANY($1::text[]) AND channel = 'engine' AND reference IS NOT NULL ORDER BY seq",
    [ids],
  )
  return rows.map((row) => row.reference)
}

/** The engine actions written for a return, oldest first. */
async function writtenActions(db: Queryable, returnId: string): Promise<WrittenAction[]> {
  const rows = await db.query<{ id: string; payload: EnginePayload }>(
    "SELECT id, payload FROM outbox WHERE return_id = $1 AND channel = 'engine' ORDER BY seq",
    [returnId],
  )
  return rows.map((row) => ({ id: row.id, action: row.payload.action }))
}

/**
 * Writes an action to carry out in the shop's commerce engine, in the caller's transaction: taken
 * by the delivery loop like an e-mail, in order per return, under its row's id as the action's
 * key (docs/commerce.md). Its target is the shop's engine, so one slow engine holds only its own.
 */
export async function writeEngineAction(
  tx: Queryable,
  entry: { shopId: string; returnId: string; action: EngineAction },
  at: Date,
): Promise<string> {
  const id = `act_${randomUUID().replaceAll('-', '')}`
  const payload: EnginePayload = { action: entry.action }
  await tx.query(
    `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, recipient, payload, created_at, due_at)
     VALUES ($1, $2, $3, $4, 'engine', $5, NULL, $6, $7, $7)`,
    [
      id,
      entry.shopId,
      entry.returnId,
      `engine.${entry.action.kind}`,
      engineTarget(entry.shopId),
      JSON.stringify(payload),
      at,
    ],
  )
  return id
}

/** The outbox target of a shop's engine actions. */
export const engineTarget = (shopId: string) => `engine:${shopId}`

/** The status with the store credit issued for its refund. */
function withStoreCredit(status: ReturnStatus, credit: StoreCredit | null): ReturnStatus {
  return credit && status.refund ? { ...status, refund: { ...status.refund, store_credit: credit } } : status
}

/** The deal of a return for its e-mails: the variants of its lines and its breakdown as priced. */
function dealOf(contact: ReturnContact, at: Date): EmailDeal {
  const bought = new Map(contact.line_items.map((line) => [line.id, line.variant_id ?? null]))
  const items = contact.return_order?.items ?? []
  return {
    at: at.toISOString(),
    variants: Object.fromEntries(
      items.map((item) => [
        item.line_item_id,
        { variant_id: bought.get(item.line_item_id) ?? null, exchange_variant_id: item.exchange_variant_id ?? null },
      ]),
    ),
    breakdown: contact.return_order?.breakdown ?? null,
  }
}

/** What the claiming process has in hand per target, and how many rows of one target it may hold. */
export interface TargetsInHand {
  perTarget: number
  held: ReadonlyMap<string, number>
}

/**
 * A row `o` waits while an engine action it names (an exchange's e-mail: `engine_actions`) is
 * still pending; once the action is done or has failed for good, it goes (decision 0078).
 */
const NOT_WAITING = `NOT EXISTS (SELECT 1 FROM outbox w WHERE w.state = 'pending'
        AND w.id IN (SELECT jsonb_array_elements_text(COALESCE(o.payload -> 'engine_actions', '[]'::jsonb))))`

/** Rows looked at per claim, before each target's share is cut to what it may still take. */
const CANDIDATES = 100

/**
 * Takes up to `limit` due rows for one attempt each, leased until `leaseUntil`: rows another
 * process holds are skipped (SKIP LOCKED), a row waits while an earlier one of its return and
 * target is still pending (in order per return), and a disabled endpoint's rows wait. With
 * `targets`, no target gets more than `perTarget` rows in hand, counting those already `held`:
 * a slow endpoint holds its own rows only (docs/events.md).
 */
export async function claimDue(
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  limit: number,
  targets: TargetsInHand = { perTarget: limit, held: new Map() },
): Promise<OutboxRow[]> {
  const held = [...targets.held].filter(([, count]) => count > 0)
  const full = held.filter(([, count]) => count >= targets.perTarget).map(([target]) => target)
  // Most polls find nothing due: a read says so without writing. On PGlite any write, even of no
  // row, makes verify's and the staff sessions' remembered reads stale (decisions 0032 and 0048),
  // and the loop polls every second. The claim below checks everything again.
  const [due] = await db.query(
    `SELECT 1 FROM outbox o WHERE o.state = 'pending' AND o.due_at <= $1 AND (o.locked_until IS NULL OR o.locked_until <= $1)
        AND o.target <> ALL($2::text[]) AND ${NOT_WAITING} LIMIT 1`,
    [now, full],
  )
  if (!due) return []
  // FOR UPDATE allows no window function beside it: the candidates are locked first, then each
  // target's share is cut by rank.
  return db.query<OutboxRow>(
    `WITH held AS (SELECT * FROM unnest($4::text[], $5::int[]) AS h(target, n)),
     candidates AS (
       SELECT o.seq, o.target, o.due_at FROM outbox o
        WHERE o.state = 'pending' AND o.due_at <= $1 AND (o.locked_until IS NULL OR o.locked_until <= $1)
          AND NOT EXISTS (SELECT 1 FROM held h WHERE h.target = o.target AND h.n >= $6)
          AND NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = o.target AND e.disabled_at IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.return_id = o.return_id AND p.target = o.target
                            AND p.seq < o.seq AND p.state = 'pending')
          AND ${NOT_WAITING}
        ORDER BY o.due_at, o.seq
        LIMIT $7
        FOR UPDATE OF o SKIP LOCKED),
     chosen AS (
       SELECT r.seq FROM (
         SELECT c.seq, c.due_at,
                row_number() OVER (PARTITION BY c.target ORDER BY c.due_at, c.seq) + COALESCE(h.n, 0) AS place
           FROM candidates c LEFT JOIN held h ON h.target = c.target) r
        WHERE r.place <= $6
        ORDER BY r.due_at, r.seq
        LIMIT $3)
     UPDATE outbox SET locked_until = $2, attempts = attempts + 1
      WHERE seq IN (SELECT seq FROM chosen)
      RETURNING ${COLUMNS}`,
    [
      now,
      leaseUntil,
      limit,
      held.map(([target]) => target),
      held.map(([, count]) => count),
      targets.perTarget,
      Math.max(CANDIDATES, limit),
    ],
  )
}

export interface AttemptResult {
  at: Date
  durationMs: number
  ok: boolean
  statusCode: number | null
  error: string | null
}

/**
 * Records an attempt of a claimed row and where the row goes next: delivered (or kept, for an
 * e-mail without a mail server), due again at `retryAt`, or failed for good. Only the holder of
 * the attempt writes: a process whose lease ran out and was overtaken changes nothing.
 */
export async function finishAttempt(
  db: Queryable,
  row: Pick<OutboxRow, 'seq' | 'attempts'>,
  result: AttemptResult,
  next: { state: OutboxState; dueAt?: Date; message?: RenderedEmail | null; reference?: string | null },
): Promise<boolean> {
  const updated = await db.query(
    `UPDATE outbox SET state = $3, locked_until = NULL, due_at = COALESCE($4, due_at), last_error = $5,
            delivered_at = CASE WHEN $3 IN ('delivered', 'kept') THEN $6::timestamptz ELSE delivered_at END,
            message = COALESCE($7, message), reference = COALESCE($8, reference)
      WHERE seq = $1 AND attempts = $2 AND state = 'pending'
      RETURNING seq`,
    [
      row.seq,
      row.attempts,
      next.state,
      next.dueAt ?? null,
      result.ok ? null : result.error,
      result.at,
      next.message ? JSON.stringify(next.message) : null,
      next.reference ?? null,
    ],
  )
  if (updated.length === 0) return false
  await db.query(
    `INSERT INTO delivery_attempts (outbox_seq, attempt, at, duration_ms, ok, status_code, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [row.seq, row.attempts, result.at, Math.round(result.durationMs), result.ok, result.statusCode, result.error],
  )
  return true
}

/** Ends every lease: at the start of the one process of an embedded database, nobody else holds one. */
export async function releaseLeases(db: Queryable): Promise<void> {
  await db.query("UPDATE outbox SET locked_until = NULL WHERE state = 'pending' AND locked_until IS NOT NULL")
}

/** The shop's e-mails, newest first, optionally of one return. */
export async function listEmails(
  db: Queryable,
  shopId: string,
  options: { returnId?: string; limit: number },
): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT ${COLUMNS} FROM outbox WHERE shop_id = $1 AND channel = 'email' AND return_id IS NOT NULL AND ($2::text IS NULL OR return_id = $2)
      ORDER BY seq DESC LIMIT $3`,
    [shopId, options.returnId ?? null, options.limit],
  )
}

export async function findOutboxRow(db: Queryable, shopId: string, id: string): Promise<OutboxRow | null> {
  const [row] = await db.query<OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE shop_id = $1 AND id = $2`, [shopId, id])
  return row ?? null
}

/**
 * Writes e-mail `row` again as a new e-mail to the same shopper, with the same payload (rendered
 * anew when delivered): staff's resend (docs/back-office.md). Returns the new row's id.
 */
export async function copyEmail(tx: Queryable, row: OutboxRow, at: Date): Promise<string> {
  const id = messageId()
  await tx.query(
    `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, recipient, payload, created_at, due_at)
     VALUES ($1, $2, $3, $4, 'email', $5, $6, $7, $8, $8)`,
    [id, row.shop_id, row.return_id, row.event, row.target, row.recipient, JSON.stringify(row.payload), at],
  )
  return id
}

/** An endpoint's deliveries, newest first, with each attempt. */
export async function listDeliveries(db: Queryable, endpointId: string, limit: number) {
  const rows = await db.query<OutboxRow>(`SELECT ${COLUMNS} FROM outbox WHERE target = $1 ORDER BY seq DESC LIMIT $2`, [
    endpointId,
    limit,
  ])
  const attempts = await db.query<{
    outbox_seq: string
    attempt: number
    at: Date
    duration_ms: number
    ok: boolean
    status_code: number | null
    error: string | null
  }>('SELECT * FROM delivery_attempts WHERE outbox_seq = ANY($1::bigint[]) ORDER BY outbox_seq, attempt', [
    rows.map((row) => row.seq),
  ])
  return rows.map((row) => ({ row, attempts: attempts.filter((attempt) => attempt.outbox_seq === row.seq) }))
}

/**
 * An engine action as the console lists it: its row, the name of its return, and whether it is a
 * return's opening whose cancel is written (never retried, retryOutboxRow).
 */
export type EngineActionRow = OutboxRow & { return_name: string | null; opening_cancelled: boolean }

/**
 * The shop's engine actions, newest first: of one return, of one kind (`engine.<kind>`), in
 * some states (docs/commerce.md).
 */
export async function listEngineActions(
  db: Queryable,
  shopId: string,
  options: { returnId?: string; event?: string; states?: readonly OutboxState[]; limit: number },
): Promise<EngineActionRow[]> {
  const columns = COLUMNS.split(', ')
    .map((column) => `o.${column}`)
    .join(', ')
  return db.query<EngineActionRow>(
    `SELECT ${columns}, r.name AS return_name,
            o.event = 'engine.request_return' AND EXISTS (
              SELECT 1 FROM outbox c WHERE c.return_id = o.return_id AND c.event = 'engine.cancel_return'
            ) AS opening_cancelled
       FROM outbox o LEFT JOIN returns r ON r.id = o.return_id
      WHERE o.shop_id = $1 AND o.channel = 'engine' AND ($2::text IS NULL OR o.return_id = $2)
        AND ($3::text IS NULL OR o.event = $3) AND ($4::text[] IS NULL OR o.state = ANY($4::text[]))
      ORDER BY o.seq DESC LIMIT $5`,
    [shopId, options.returnId ?? null, options.event ?? null, options.states ?? null, options.limit],
  )
}

/**
 * What a retry found: done, the row `busy` (an attempt under way), `already_done` (an engine
 * action), `cancelled` (a return's opening once its cancel is written), or `missing`.
 */
export type RetryOutcome = 'done' | 'busy' | 'already_done' | 'cancelled' | 'missing'

/**
 * Tries a webhook or an engine action again, now, under the same id: a receiver that saw the
 * webhook can tell, and the engine, which knows the action by that key, never does it twice
 * (docs/commerce.md). A webhook may be sent again once delivered; an engine action done is
 * `already_done`. `busy` while an attempt is under way, `missing` for no such row of this shop
 * on `channel`. A `request_return` is not tried again once its return's `cancel_return` is
 * written: the cancel may have found nothing to cancel, and would leave it open (decision 0088).
 */
export async function retryOutboxRow(
  db: Queryable,
  shopId: string,
  channel: 'webhook' | 'engine',
  id: string,
  now: Date,
): Promise<RetryOutcome> {
  const updated = await db.query(
    `UPDATE outbox SET state = 'pending', due_at = $4, locked_until = NULL, last_error = NULL
      WHERE shop_id = $1 AND id = $2 AND channel = $3
        AND ($3 = 'webhook' OR state IN ('pending', 'failed'))
        AND (state <> 'pending' OR locked_until IS NULL OR locked_until <= $4)
        AND NOT (event = 'engine.request_return' AND EXISTS (
          SELECT 1 FROM outbox c WHERE c.return_id = outbox.return_id AND c.event = 'engine.cancel_return'))
      RETURNING seq`,
    [shopId, id, channel, now],
  )
  if (updated.length > 0) return 'done'
  const [row] = await db.query<{ channel: Channel; state: OutboxState; cancelled: boolean }>(
    `SELECT o.channel, o.state, o.event = 'engine.request_return' AND EXISTS (
              SELECT 1 FROM outbox c WHERE c.return_id = o.return_id AND c.event = 'engine.cancel_return') AS cancelled
       FROM outbox o WHERE o.shop_id = $1 AND o.id = $2`,
    [shopId, id],
  )
  if (row?.channel !== channel) return 'missing'
  if (row.state === 'delivered') return 'already_done'
  return row.cancelled ? 'cancelled' : 'busy'
}

/** The e-mails to staff (docs/back-office.md, "Roles"): an invite, or a fresh set-password link. */
export const STAFF_EMAIL_KINDS = ['staff_invite', 'staff_reset'] as const
export type StaffEmailKind = (typeof STAFF_EMAIL_KINDS)[number]
/** The purpose a staff e-mail's link is sealed under (storage/sealed.ts), bound to its row's id. */
export const STAFF_LINK_PURPOSE = 'staff e-mail link'

/**
 * A staff e-mail's row body. Its link carries a single-use token, sealed with the server secret
 * (bound to the row's id) until the e-mail is rendered: the row alone opens nothing.
 */
export interface StaffEmailPayload {
  kind: StaffEmailKind
  shop: string
  role: string
  invited_by: string
  expires_at: string
  link_sealed: string
}

/**
 * Writes a staff e-mail in the caller's transaction. It belongs to no return: the shoppers'
 * E-mails page, which lists only e-mails of returns, never shows it.
 */
export async function writeStaffEmail(
  tx: Queryable,
  shopId: string,
  to: string,
  payload: (id: string) => StaffEmailPayload,
  at: Date,
): Promise<string> {
  const id = messageId()
  const body = payload(id)
  await tx.query(
    `INSERT INTO outbox (id, shop_id, return_id, event, channel, target, recipient, payload, created_at, due_at)
     VALUES ($1, $2, NULL, $3, 'email', 'email', $4, $5, $6, $6)`,
    [id, shopId, `email.${body.kind}`, to, JSON.stringify(body), at],
  )
  return id
}

/**
 * Withdraws the invite e-mails to this address not sent yet (nor being sent), in the caller's
 * transaction: a withdrawn invite sends no link that opens nothing. Answers how many went.
 */
export async function withdrawStaffInviteEmails(tx: Queryable, shopId: string, to: string, now: Date): Promise<number> {
  const withdrawn = await tx.query(
    `DELETE FROM outbox
      WHERE shop_id = $1 AND channel = 'email' AND event = 'email.staff_invite' AND recipient = $2
        AND state = 'pending' AND (locked_until IS NULL OR locked_until <= $3)
      RETURNING seq`,
    [shopId, to, now],
  )
  return withdrawn.length
}
