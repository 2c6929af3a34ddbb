/**
 * The Orders API (docs/api.md: Orders API): a shop's commerce platform sends its orders, catalogue
 * and stock, each call with a key of the shop. Registered with the prefix ORDERS_API_PREFIX
 * (`/api/v1/shops`), so each route's path begins with `/:shop`, which the key must be of.
 */
import { OrdersApiShop, OrdersApiShopParams } from '../../../contract/ordersApi'
import type { PortalContext } from '../context'
import { notFound } from '../services/refusal'
import { apiKeyAuth } from './apiKey'
import { replies, type Api } from './typed'

export async function ordersApiRoutes(app: Api, context: PortalContext): Promise<void> {
  await app.register(apiKeyAuth, { context })
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })

  app.get(
    '/:shop',
    { schema: { params: OrdersApiShopParams, response: replies({ 200: OrdersApiShop }) } },
    async (request) => {
      const shop = await context.shops.find(request.apiKey.shop)
      if (!shop) throw notFound('The key’s shop has no shop file imported yet.')
      return { shop: shop.id, currency_code: shop.currency_code, key_label: request.apiKey.label }
    },
  )
}
