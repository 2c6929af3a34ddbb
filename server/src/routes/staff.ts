import { Readable, pipeline } from 'node:stream'
import cookie from '@fastify/cookie'
import { stringify } from 'csv-stringify'
import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import {
  ReturnDetail,
  ReturnList,
  Insights,
  InsightsQuery,
  ReturnsExportQuery,
  ReturnsQuery,
  SignIn,
  StaffShop,
  StaffSession,
  StaffStateChange,
  type StaffItemsMoved,
  StaffReturnParams,
  SupportReferenceParams,
  SupportSession,
  type TimelineEntry,
  OUTCOME_WORDS,
  REVIEW_WORDS,
  returnStandingWords,
} from '../../../contract/staff'
import type { ReturnReason } from '../../../contract/api'
import { PHOTO_ID_PATTERN, RETURN_ID_PATTERN } from '../../../contract/constants'
import type { PortalContext } from '../context'
import { heldExchanges } from '../domain/inspection'
import { passwordMatches } from '../domain/passwords'
import { readSupportReference } from '../domain/supportReference'
import { findSupportReference } from '../storage/supportReferences'
import { findInsights } from '../storage/insights'
import { findOrderById } from '../storage/orders'
import { findActions, findReturnedLines } from '../storage/returnStates'
import {
  clearSignInFailures,
  endSession,
  findStaffByEmail,
  lockedUntil,
  reserveSignInAttempt,
  startSession,
} from '../storage/staff'
import {
  decodeCursor,
  encodeCursor,
  type Cursor,
  type ReturnFilters,
  findReturnPhotos,
  findShopPhoto,
  findShopReturn,
  listReturns,
} from '../storage/staffReturns'
import type { ReturnRecord } from '../storage/returns'
import { inspectionViews } from '../storage/inspections'
import { invalidRequest, notFound, Refusal } from '../services/refusal'
import { SESSION_COOKIE, notThisShop, sessionLimits, shopOf, staffSession } from './staffSession'
import { staffEventRoutes } from './staffEvents'
import { moveStaffItems } from './staffMoves'
import { exchangeLines, staffInspectionRoutes } from './staffInspection'
import { staffPolicyRoutes } from './staffPolicy'
import { staffReviewRoutes } from './staffReviews'
import { returnStatus } from './status'
import { Bytes, replies, type Api } from './typed'

/**
 * A state-changing call must come from a page of this origin (docs/back-office.md: cross-site
 * requests): its Origin is this host's, or, where a browser sends none, Sec-Fetch-Site says
 * same-origin. The cookie's SameSite=Strict is the second wall.
 */
function sameOrigin(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  if (request.method === 'GET' || request.method === 'HEAD') return done()
  const origin = request.headers.origin
  const own = `${request.protocol}://${request.host}`
  const ok = origin !== undefined ? origin === own : request.headers['sec-fetch-site'] === 'same-origin'
  if (ok) return done()
  done(
    new Refusal(
      403,
      { error: 'cross_site', message: 'This request must come from the console’s own page.' },
      { 'cache-control': 'no-store' },
    ),
  )
}

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return {
    path: '/admin',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  }
}

/**
 * The back office's API under /admin/api (docs/back-office.md): sign-in, and the shop's returns
 * for its staff. Every answer is private to the staff member: never cached.
 */
export async function staffRoutes(app: Api, context: PortalContext) {
  await app.register(cookie)
  const { limits } = context
  app.addHook('onRequest', sameOrigin)
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.post(
    '/admin/api/session',
    {
      preHandler: app.rateLimit({ max: limits.signInPerClient, timeWindow: 60_000, groupId: 'staff-sign-in' }),
      schema: { body: SignIn, response: replies({ 200: StaffSession }) },
    },
    async (request, reply) => {
      const { email, password } = request.body
      const now = context.now()
      // The try is taken before the password is checked, so a burst cannot check more than ten.
      if (!(await reserveSignInAttempt(context.db, email, now))) {
        const locked = await lockedUntil(context.db, email, now)
        const seconds = locked ? Math.ceil((locked.getTime() - now.getTime()) / 1000) : 1
        throw new Refusal(
          429,
          {
            error: 'locked',
            message: 'Too many wrong passwords for this account. Please wait 15 minutes and try again.',
          },
          { 'retry-after': String(Math.max(1, seconds)) },
        )
      }
      // An unknown e-mail is checked against a stand-in hash: the same work, the same answer.
      // A wrong password leaves its try counted.
      const member = await findStaffByEmail(context.db, email)
      if (!(await passwordMatches(member?.password_hash ?? null, password)) || !member)
        throw new Refusal(401, { error: 'invalid_credentials', message: 'The e-mail or password is not right.' })
      await clearSignInFailures(context.db, email)
      const shop = shopOf(request, member)
      if (!shop) throw notThisShop()
      const value = await startSession(context.db, member.id, now, sessionLimits(context))
      return reply
        .setCookie(SESSION_COOKIE, value, cookieOptions(request, limits.staffSessionSeconds))
        .send({ email: member.email, shop, shops: member.shops })
    },
  )

  app.delete('/admin/api/session', { schema: { response: replies({ 204: Type.Null() }) } }, async (request, reply) => {
    const value = request.cookies[SESSION_COOKIE]
    if (value) await endSession(context.db, value)
    return reply.clearCookie(SESSION_COOKIE, { path: '/admin' }).code(204).send(null)
  })

  // The rest is for the signed-in staff of this host's shop only.
  await app.register(async (signedIn: Api) => {
    await signedIn.register(staffSession, { context })

    signedIn.get('/admin/api/session', { schema: { response: replies({ 200: StaffSession }) } }, (request) => {
      const { member, shop } = request.staff
      return { email: member.email, shop, shops: member.shops }
    })

    signedIn.get('/admin/api/shop', { schema: { response: replies({ 200: StaffShop }) } }, async (request) => {
      const shop = await context.shops.find(request.staff.shop)
      if (!shop) throw notFound('This shop has not been imported.')
      return { shop: shop.id, reasons: reasonChoices(shop.return_reasons) }
    })

    signedIn.get(
      '/admin/api/returns',
      { schema: { querystring: ReturnsQuery, response: replies({ 200: ReturnList }) } },
      async (request) => {
        const { after, limit, ...query } = request.query
        const filters = filtersOf(query)
        const cursor = after === undefined ? null : decodeCursor(after)
        if (typeof filters === 'string' || (after !== undefined && !cursor))
          throw invalidRequest(typeof filters === 'string' ? filters : 'after: not a page of this list')
        const page = await listReturns(
          context.db,
          request.staff.shop,
          filters,
          limit === undefined ? 25 : Number(limit),
          cursor,
        )
        return { returns: page.returns, next: page.next ? encodeCursor(page.next) : null }
      },
    )

    signedIn.get('/admin/api/returns.csv', { schema: { querystring: ReturnsExportQuery } }, async (request, reply) => {
      const filters = filtersOf(request.query)
      if (typeof filters === 'string') throw invalidRequest(filters)
      const { shop } = request.staff
      const day = context.now().toISOString().slice(0, 10)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="returns-${shop}-${day}.csv"`)
        .send(
          // pipeline, not pipe: a failed page (the database gone) ends this answer, and Fastify
          // logs it (or answers 503 when nothing was sent yet), instead of an unhandled 'error'.
          pipeline(Readable.from(exportRows(context, shop, filters)), csvOf(), () => {}),
        )
    })

    signedIn.get(
      '/admin/api/insights',
      { schema: { querystring: InsightsQuery, response: replies({ 200: Insights }) } },
      async (request) => {
        const today = context.now().toISOString().slice(0, 10)
        const to = request.query.to ?? today
        // `to` is checked first: the 30 days before it are the period when no from is given.
        const end = filtersOf({ to })
        if (typeof end === 'string') throw invalidRequest(end)
        const from =
          request.query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10)
        const period = filtersOf({ from, to })
        if (typeof period === 'string') throw invalidRequest(period)
        const { from: start, until } = period as { from: Date; until: Date }
        if (start >= until || until.getTime() - start.getTime() > 366 * 86_400_000)
          throw invalidRequest('from, to: a period of one day to a year, from before to')
        const shop = await context.shops.find(request.staff.shop)
        const currency_code = shop?.currency_code ?? 'EUR'
        const money = (amount: string) => ({ amount, currency_code })
        const rows = await findInsights(context.db, request.staff.shop, start, until, currency_code)
        return {
          from,
          to,
          returns: rows.returns,
          reasons: rows.reasons.map((row) => ({ ...row, value: money(row.value) })),
          products: rows.products.map((row) => ({ ...row, value: money(row.value) })),
          outcomes: {
            exchanges: money(rows.outcomes.exchanges),
            upsells: money(rows.outcomes.upsells),
            store_credit: money(rows.outcomes.store_credit),
            refunded: money(rows.outcomes.refunded),
          },
        }
      },
    )

    signedIn.get(
      '/admin/api/returns/:id',
      { schema: { params: StaffReturnParams, response: replies({ 200: ReturnDetail }) } },
      async (request) => {
        const detail = await returnDetail(context, request.staff.shop, request.params.id)
        if (!detail) throw notFound('No such return.')
        return detail
      },
    )

    signedIn.get(
      '/admin/api/returns/:id/photos/:photo',
      {
        schema: {
          params: Type.Object({
            id: Type.String({ pattern: RETURN_ID_PATTERN.source }),
            photo: Type.String({ pattern: PHOTO_ID_PATTERN.source }),
          }),
          response: replies({ 200: Bytes }),
        },
      },
      async (request, reply) => {
        const { id, photo: photoId } = request.params
        const photo = await findShopPhoto(context.db, request.staff.shop, id, photoId)
        const bytes = photo && (await context.photos.read(context.db, photoId, photo.in_row))
        if (!photo || !bytes) throw notFound('No such photo.')
        return reply
          .header('content-type', photo.content_type)
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      },
    )

    staffEventRoutes(signedIn, context)
    staffPolicyRoutes(signedIn, context)
    staffInspectionRoutes(signedIn, context)
    staffReviewRoutes(signedIn, context)

    signedIn.get(
      '/admin/api/support/:reference',
      {
        schema: { params: SupportReferenceParams, response: replies({ 200: SupportSession }) },
      },
      async (request) => {
        const reference = readSupportReference(request.params.reference)
        const found =
          reference && (await findSupportReference(context.db, request.staff.shop, reference, context.now()))
        // Another shop's, an expired and an unknown reference answer alike.
        if (!reference || !found)
          throw notFound(
            `No support reference ${reference ?? request.params.reference.slice(0, 16)} for this shop. References last 7 days: ask the shopper for a new one.`,
          )
        return {
          reference,
          code: found.code,
          created_at: new Date(found.created_at).toISOString(),
          expires_at: new Date(found.expires_at).toISOString(),
        }
      },
    )

    signedIn.post(
      '/admin/api/returns/:id/status',
      { schema: { params: StaffReturnParams, body: StaffStateChange } },
      async (request, reply) => {
        const { member, shop } = request.staff
        const outcome = await moveStaffItems(context, request.params.id, {
          shopId: shop,
          actor: member.email,
          change: request.body,
        })
        const detail = await returnDetail(context, shop, request.params.id)
        if (!detail) throw notFound('No such return.')
        return reply.send({ ...detail, moved: outcome.moved, skipped: outcome.skipped } satisfies StaffItemsMoved)
      },
    )
  })
}

/** The list's filters from the query, or what is wrong with them. */
function filtersOf(query: Partial<ReturnsExportQuery>): ReturnFilters | string {
  const day = (value: string | undefined, plusDays = 0) => {
    if (value === undefined) return undefined
    const at = new Date(`${value}T00:00:00Z`)
    // 2026-02-31 is not a day, though Date would make it one in March; nor is year 0000, which
    // Date takes and PostgreSQL does not. The years the console has any use for: 1900 to 2999.
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) return null
    if (at.getUTCFullYear() < 1900 || at.getUTCFullYear() > 2999) return null
    return new Date(at.getTime() + plusDays * 86_400_000)
  }
  const from = day(query.from)
  const until = day(query.to, 1)
  if (from === null) return 'from: not a day from 1900-01-01 to 2999-12-31'
  if (until === null) return 'to: not a day from 1900-01-01 to 2999-12-31'
  return { q: query.q, state: query.state, from, until, reason: query.reason, review: query.review }
}

/** Every reason a shopper can choose (the leaves), a sub-reason named with its parent. */
function reasonChoices(reasons: readonly ReturnReason[], parent?: string): { id: string; label: string }[] {
  return reasons.flatMap((reason) => {
    const label = parent ? `${parent}: ${reason.label}` : reason.label
    return reason.children?.length ? reasonChoices(reason.children, label) : [{ id: reason.id, label }]
  })
}

/** The export's columns, as a spreadsheet shows them. */
const CSV_COLUMNS = [
  'Return',
  'Order',
  'Shopper',
  'Submitted',
  'Items',
  'Outcome',
  'Refund',
  'Currency',
  'State',
  'Review',
]

/**
 * The CSV writer: a header row, and any cell a spreadsheet would run as a formula (=, +, -, @, a
 * tab or a carriage return first: a comment or a name a shopper typed) written as text.
 */
const csvOf = () => stringify({ header: true, columns: CSV_COLUMNS, escape_formulas: true, bom: true })

/** Every return the filters match, a thousand per query, newest first. */
async function* exportRows(context: PortalContext, shop: string, filters: ReturnFilters) {
  let after: Cursor | null = null
  do {
    const page: Awaited<ReturnType<typeof listReturns>> = await listReturns(context.db, shop, filters, 1000, after)
    for (const entry of page.returns)
      yield [
        entry.name,
        entry.order_name,
        entry.email,
        entry.created_at,
        entry.items,
        entry.outcome ? OUTCOME_WORDS[entry.outcome] : '',
        entry.refund?.amount ?? '',
        entry.refund?.currency_code ?? '',
        // In words, as the list shows them (decision 0059): a rejected return is not "requested".
        returnStandingWords(entry),
        entry.review ? REVIEW_WORDS[entry.review] : '',
      ]
    after = page.next
  } while (after)
}

/** A return of the shop as the console shows it; null for another shop's or an unknown one. */
async function returnDetail(context: PortalContext, shopId: string, id: string): Promise<ReturnDetail | null> {
  const found = await findShopReturn(context.db, shopId, id)
  const order = found && (await findOrderById(context.db, found.record.order_id))
  const shop = order && (await context.shops.find(shopId))
  if (!found || !order || !shop) return null
  const [lines, photos, actions, inspections] = await Promise.all([
    findReturnedLines(context.db, id),
    findReturnPhotos(context.db, id),
    findActions(context.db, id),
    inspectionViews(context.db, shop, id),
  ])
  // The lines read once, for the shopper's status and the timeline alike.
  const status = await returnStatus(context, found.record, order, shop, lines)
  const titleOf = new Map(status.items.map((item) => [item.line_item_id, item.title]))
  const titles = (ids: readonly string[]) => ids.map((lineId) => titleOf.get(lineId) ?? lineId)
  // Item states reached without an action of record (the shopper's kept items refunded at
  // submission, an imported history) show as the state; those an action made show as the action.
  // An inspection that refunds at once also received its items: one action covers both states.
  const covered = (action: (typeof actions)[number]) =>
    action.kind === 'inspected' ? ['received', action.state] : [action.state]
  const byAction = new Set(
    actions.flatMap((action) =>
      covered(action).flatMap((state) => action.lineItemIds.map((lineId) => `${state} ${lineId}`)),
    ),
  )
  const states = new Map<string, { at: Date; state: TimelineEntry['state']; lines: string[] }>()
  for (const line of lines)
    for (const event of line.events) {
      if (byAction.has(`${event.state} ${line.line_item_id}`)) continue
      const key = `${event.at.toISOString()} ${event.state}`
      const entry = states.get(key) ?? { at: event.at, state: event.state, lines: [] }
      entry.lines.push(line.line_item_id)
      states.set(key, entry)
    }
  const timeline: TimelineEntry[] = [
    {
      at: new Date(found.record.created_at).toISOString(),
      kind: 'created' as const,
      state: 'requested' as const,
      items: titles(lines.map((line) => line.line_item_id)),
      actor: 'shopper',
      note: null,
    },
    ...[...states.values()].map((entry) => ({
      at: entry.at.toISOString(),
      kind: 'state' as const,
      state: entry.state,
      items: titles(entry.lines),
      actor: 'system',
      note: null,
    })),
    ...actions.map((action) => ({
      at: action.at.toISOString(),
      kind: 'action' as const,
      state: action.state,
      items: titles(action.lineItemIds),
      actor: action.actor,
      note: action.note,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at))
  return {
    summary: found.summary,
    status,
    return_order: found.record.return_order,
    photos: photos.map((photo) => ({
      ...photo,
      url: `/admin/api/returns/${encodeURIComponent(id)}/photos/${photo.id}`,
    })),
    timeline,
    review: reviewView(found.record),
    inspections,
    held: heldExchanges(exchangeLines(lines, status), inspections, shop.policy),
  }
}

/** The review as staff see it: why it was flagged, and what was decided by whom. */
function reviewView(record: ReturnRecord): ReturnDetail['review'] {
  if (record.review === null) return null
  return {
    state: record.review,
    flags: record.review_flags ?? [],
    answer_by: record.review_answer_by ?? '',
    reason: record.review_reason,
    decided_at: record.reviewed_at ? new Date(record.reviewed_at).toISOString() : null,
    decided_by: record.reviewed_by,
  }
}
