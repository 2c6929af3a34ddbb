/**
 * The back office's Store connection (docs/back-office.md: Store connection, decision 0075): the
 * shop's commerce engine shown (never its key), set, tested and removed. For the signed-in staff
 * of this shop; to become the owner's alone once staff have roles.
 */
import { Type } from '@sinclair/typebox'
import { ConnectionTest, SetStoreConnection, StoreConnectionAnswer, StoreConnectionView } from '../../../contract/staff'
import { staffAuthor } from '../services/audit'
import { readConnection, removeConnection, setConnection, testConnection } from '../services/storeConnection'
import { replies, routes } from './typed'

/**
 * Tests of a shop's connection in a minute: each reaches the shop's engine with up to three calls
 * of 5 s, so a button held down (or a script behind a stolen session) cannot make Rebound hammer it.
 */
export const CONNECTION_TESTS_PER_MINUTE = 10

export const staffStoreConnectionRoutes = routes((app, context) => {
  app.get(
    '/store-connection',
    {
      config: { staffAction: 'storeConnection.manage' },
      schema: { response: replies({ 200: StoreConnectionAnswer }) },
    },
    async (request) => ({ connection: await readConnection(context, request.staff.shop) }),
  )

  app.put(
    '/store-connection',
    {
      config: { staffAction: 'storeConnection.manage' },
      schema: { body: SetStoreConnection, response: replies({ 200: StoreConnectionView }) },
    },
    async (request) =>
      setConnection(
        context,
        request.staff.shop,
        request.body,
        request.staff.member.email,
        context.now(),
        staffAuthor(request),
      ),
  )

  app.post(
    '/store-connection/test',
    {
      config: { staffAction: 'storeConnection.manage' },
      // Counted per shop, whoever of its staff asks: it is the shop's engine that is spared.
      preHandler: app.rateLimit({
        max: CONNECTION_TESTS_PER_MINUTE,
        timeWindow: 60_000,
        groupId: 'store-connection-test',
        keyGenerator: (request) => `shop:${request.staff.shop}`,
      }),
      schema: { response: replies({ 200: ConnectionTest }) },
    },
    async (request) => testConnection(context, request.staff.shop, context.now, staffAuthor(request)),
  )

  app.delete(
    '/store-connection',
    { config: { staffAction: 'storeConnection.manage' }, schema: { response: replies({ 204: Type.Null() }) } },
    async (request, reply) => {
      await removeConnection(context.db, request.staff.shop, context.now(), staffAuthor(request))
      return reply.code(204).send(null)
    },
  )
})
