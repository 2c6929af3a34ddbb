import { Catalogue } from '../../../contract/api'
import { indexCatalogue } from '../domain/catalogue'
import { replies, routes } from './typed'

/** GET /portal-registration/catalogue: the products offered in upsell exploration. */
export const catalogueRoutes = routes((app, context) => {
  app.get(
    '/catalogue',
    {
      schema: { response: replies({ 200: Catalogue }) },
    },
    async (request, reply) => {
      const shop = await context.shops.find(request.claims.shopId)
      if (!shop || !shop.settings.upsell_enabled) return reply.send({ products: [] } satisfies Catalogue)
      const index = indexCatalogue(shop.catalogue, shop.currency_code)
      const products = shop.catalogue
        .filter((product) => product.upsell !== false)
        .map((product) => ({
          id: product.id,
          title: product.title,
          image_src: product.image_src ?? null,
          variants: product.variants.map((variant) => index.variant(variant.id)!),
        }))
      return reply.header('cache-control', 'private, max-age=300').send({ products } satisfies Catalogue)
    },
  )
})
