import { ReviewDecided, ReviewDecision, ReviewQueue } from '../../../contract/staff'
import type { PortalContext } from '../context'
import { staffAuthor } from '../services/audit'
import { decideReviews, reviewQueue } from '../services/reviews'
import { replies, type Api } from './typed'

/**
 * The review queue under /admin/api/reviews (docs/lifecycle.md): the shop's returns waiting for
 * review, and the staff's decisions on one or many.
 */
export function staffReviewRoutes(app: Api, context: PortalContext): void {
  app.get(
    '/admin/api/reviews',
    { config: { staffAction: 'reviews.decide' }, schema: { response: replies({ 200: ReviewQueue }) } },
    async (request) => reviewQueue(context, request.staff.shop),
  )

  app.post(
    '/admin/api/reviews',
    {
      config: { staffAction: 'reviews.decide' },
      schema: { body: ReviewDecision, response: replies({ 200: ReviewDecided }) },
    },
    async (request) => decideReviews(context, request.staff, request.body, staffAuthor(request)),
  )
}
