/**
 * The Orders API (docs/api.md: Orders API): a shop's commerce platform sends its orders, catalogue
 * and stock, each call with a key of the shop. Registered with the prefix ORDERS_API_PREFIX
 * (`/api/v1/shops`), so each route's path begins with `/:shop`, which the key must be of.
 *
 * An order's and a product's bodies are the shop file's, read and checked by the service in the
 * file's words (services/ordersApi.ts); the document describes them (openapi.ts).
 */
import { Type } from '@sinclair/typebox'
import {
  OrderPut,
  OrdersApiError,
  OrdersApiOrderParams,
  OrdersApiProductParams,
  OrdersApiShop,
  OrdersApiShopParams,
  ProductPut,
  StockUpdate,
  StockUpdated,
} from '../../../contract/ordersApi'
import { apiKeyAuthor } from '../services/audit'
import { deleteOrder, putOrder, putProduct, putStock } from '../services/ordersApi'
import { notFound } from '../services/refusal'
import { apiKeyAuth } from './apiKey'
import { replies, routes } from './typed'

/**
 * Bodies at most: an order of 1,000 lines (the shop file's most) at 1 KB a line, which leaves a
 * 150-line order 6 KB a line for long titles and image URLs; a product of 250 variants, each
 * with an image URL of up to 2 KB; 1,000 variants' stock.
 */
export const ORDERS_API_BODY_LIMITS = { order: 1024 * 1024, product: 1024 * 1024, stock: 256 * 1024 } as const

/** The refusals of a body, which name each field (`errors`). */
const refusals = { 400: OrdersApiError, 409: OrdersApiError, 422: OrdersApiError }

export const ordersApiRoutes = routes(async (app, context) => {
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

  app.put(
    '/:shop/orders/:name',
    {
      bodyLimit: ORDERS_API_BODY_LIMITS.order,
      schema: { params: OrdersApiOrderParams, response: replies({ 200: OrderPut, 201: OrderPut, ...refusals }) },
    },
    async (request, reply) => {
      const put = await putOrder(context, request.apiKey.shop, request.params.name, request.body, apiKeyAuthor(request))
      return reply.code(put.result === 'created' ? 201 : 200).send(put)
    },
  )

  app.delete(
    '/:shop/orders/:name',
    { schema: { params: OrdersApiOrderParams, response: replies({ 204: Type.Null(), ...refusals }) } },
    async (request, reply) => {
      await deleteOrder(context, request.apiKey.shop, request.params.name, apiKeyAuthor(request))
      return reply.code(204).send(null)
    },
  )

  app.put(
    '/:shop/catalogue/products/:id',
    {
      bodyLimit: ORDERS_API_BODY_LIMITS.product,
      schema: { params: OrdersApiProductParams, response: replies({ 200: ProductPut, 201: ProductPut, ...refusals }) },
    },
    async (request, reply) => {
      const put = await putProduct(context, request.apiKey.shop, request.params.id, request.body, apiKeyAuthor(request))
      return reply.code(put.result === 'created' ? 201 : 200).send(put)
    },
  )

  app.put(
    '/:shop/stock',
    {
      bodyLimit: ORDERS_API_BODY_LIMITS.stock,
      schema: {
        params: OrdersApiShopParams,
        body: StockUpdate,
        response: replies({ 200: StockUpdated, ...refusals }),
      },
    },
    async (request) => putStock(context, request.apiKey.shop, request.body, apiKeyAuthor(request)),
  )
})
