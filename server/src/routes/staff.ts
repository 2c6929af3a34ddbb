import cookie from '@fastify/cookie'
import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import {
  ReturnCounts,
  ReturnCountsQuery,
  ReturnDetail,
  ReturnList,
  Insights,
  InsightsQuery,
  ReturnsCsv,
  ReturnsExportQuery,
  ReturnsQuery,
  InviteAcceptance,
  SignIn,
  StaffShop,
  StaffSession,
  StaffStateChange,
  StaffItemsMoved,
  StaffMoveRefused,
  StaffReturnParams,
  SupportReferenceParams,
  SupportSession,
} from '../../../contract/staff'
import { PHOTO_ID_PATTERN, RETURN_ID_PATTERN } from '../../../contract/constants'
import { staffAuthor } from '../services/audit'
import { Refusal } from '../services/refusal'
import { signIn, signOut, type StaffSignedIn } from '../services/staffSessions'
import { acceptInvite } from '../services/staffManagement'
import { actionsOf } from '../domain/roles'
import {
  countShopReturns,
  exportReturns,
  listShopReturns,
  moveItems,
  readReturnPhoto,
  returnDetail,
  shopInsights,
  shopReasons,
  supportSession,
} from '../services/staffReturns'
import { SESSION_COOKIE, staffSession } from './staffSession'
import { staffApiKeyRoutes } from './staffApiKeys'
import { staffAuditRoutes } from './staffAudit'
import { staffEventRoutes } from './staffEvents'
import { staffInspectionRoutes } from './staffInspection'
import { staffPolicyRoutes } from './staffPolicy'
import { staffReviewRoutes } from './staffReviews'
import { staffReturnActionRoutes } from './staffReturnActions'
import { staffStoreConnectionRoutes } from './staffStoreConnection'
import { staffManagementRoutes } from './staffManagement'
import { Bytes, replies, routes, type Api } from './typed'

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

/** Who is signed in, their role here and what it may do (the console hides the rest). */
const sessionAnswer = ({ member, shop, role }: StaffSignedIn): StaffSession => ({
  email: member.email,
  shop,
  shops: member.shops,
  role,
  actions: actionsOf(role),
})

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
export const staffRoutes = routes(async (app, context) => {
  await app.register(cookie)
  const { limits } = context
  app.addHook('onRequest', sameOrigin)
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.post(
    '/session',
    {
      preHandler: app.rateLimit({ max: limits.signInPerClient, timeWindow: 60_000, groupId: 'staff-sign-in' }),
      schema: { body: SignIn, response: replies({ 200: StaffSession }) },
    },
    async (request, reply) => {
      const { email, password } = request.body
      const { session, staff } = await signIn(context, request.hostname, email, password, request.ip)
      return reply
        .setCookie(SESSION_COOKIE, session, cookieOptions(request, limits.staffSessionSeconds))
        .send(sessionAnswer(staff))
    },
  )

  // An invite's (or a reset's) link: the password set, and the invitee signed in. Limited as sign-in is.
  app.post(
    '/invite',
    {
      preHandler: app.rateLimit({ max: limits.signInPerClient, timeWindow: 60_000, groupId: 'staff-invite' }),
      schema: { body: InviteAcceptance, response: replies({ 200: StaffSession }) },
    },
    async (request, reply) => {
      const { session, staff } = await acceptInvite(context, request.hostname, request.body, request.ip)
      return reply
        .setCookie(SESSION_COOKIE, session, cookieOptions(request, limits.staffSessionSeconds))
        .send(sessionAnswer(staff))
    },
  )

  app.delete('/session', { schema: { response: replies({ 204: Type.Null() }) } }, async (request, reply) => {
    await signOut(context, request.hostname, request.cookies[SESSION_COOKIE], request.ip)
    return reply.clearCookie(SESSION_COOKIE, { path: '/admin' }).code(204).send(null)
  })

  // The rest is for the signed-in staff of this host's shop only.
  await app.register(async (signedIn: Api) => {
    await signedIn.register(staffSession, { context })

    signedIn.get(
      '/session',
      { config: { staffAction: 'console.use' }, schema: { response: replies({ 200: StaffSession }) } },
      (request) => sessionAnswer(request.staff),
    )

    signedIn.get(
      '/shop',
      { config: { staffAction: 'console.use' }, schema: { response: replies({ 200: StaffShop }) } },
      async (request) => shopReasons(context, request.staff.shop),
    )

    signedIn.get(
      '/returns',
      {
        config: { staffAction: 'returns.read' },
        schema: { querystring: ReturnsQuery, response: replies({ 200: ReturnList }) },
      },
      async (request) => listShopReturns(context, request.staff.shop, request.query),
    )

    signedIn.get(
      '/return-counts',
      {
        config: { staffAction: 'returns.read' },
        schema: { querystring: ReturnCountsQuery, response: replies({ 200: ReturnCounts }) },
      },
      async (request) => countShopReturns(context, request.staff.shop, request.query),
    )

    signedIn.get(
      '/returns.csv',
      {
        config: { staffAction: 'returns.export' },
        schema: { querystring: ReturnsExportQuery, response: replies({ 200: ReturnsCsv }) },
      },
      async (request, reply) => {
        const { filename, csv } = await exportReturns(context, request.staff.shop, request.query, staffAuthor(request))
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(csv)
      },
    )

    signedIn.get(
      '/insights',
      {
        config: { staffAction: 'insights.read' },
        schema: { querystring: InsightsQuery, response: replies({ 200: Insights }) },
      },
      async (request) => shopInsights(context, request.staff.shop, request.query),
    )

    signedIn.get(
      '/returns/:id',
      {
        config: { staffAction: 'returns.read' },
        schema: { params: StaffReturnParams, response: replies({ 200: ReturnDetail }) },
      },
      async (request) => returnDetail(context, request.staff.shop, request.params.id),
    )

    signedIn.get(
      '/returns/:id/photos/:photo',
      {
        config: { staffAction: 'returns.read' },
        schema: {
          params: Type.Object({
            id: Type.String({ pattern: RETURN_ID_PATTERN.source }),
            photo: Type.String({ pattern: PHOTO_ID_PATTERN.source }),
          }),
          response: replies({ 200: Bytes }),
        },
      },
      async (request, reply) => {
        const { contentType, bytes } = await readReturnPhoto(
          context,
          request.staff.shop,
          request.params.id,
          request.params.photo,
        )
        return reply
          .header('content-type', contentType)
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(bytes)
      },
    )

    await signedIn.register(staffEventRoutes, { context })
    await signedIn.register(staffPolicyRoutes, { context })
    await signedIn.register(staffInspectionRoutes, { context })
    await signedIn.register(staffReviewRoutes, { context })
    await signedIn.register(staffApiKeyRoutes, { context })
    await signedIn.register(staffStoreConnectionRoutes, { context })
    await signedIn.register(staffManagementRoutes, { context })
    await signedIn.register(staffAuditRoutes, { context })
    await signedIn.register(staffReturnActionRoutes, { context })

    signedIn.get(
      '/support/:reference',
      {
        config: { staffAction: 'support.open' },
        schema: { params: SupportReferenceParams, response: replies({ 200: SupportSession }) },
      },
      async (request) => supportSession(context, request.staff.shop, request.params.reference, staffAuthor(request)),
    )

    signedIn.post(
      '/returns/:id/status',
      {
        config: { staffAction: 'returns.move' },
        schema: {
          params: StaffReturnParams,
          body: StaffStateChange,
          response: replies({ 200: StaffItemsMoved, 409: StaffMoveRefused }),
        },
      },
      async (request) => moveItems(context, request.staff, request.params.id, request.body, staffAuthor(request)),
    )
  })
})
