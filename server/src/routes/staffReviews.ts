import { ReviewDecided, ReviewDecision, ReviewQueue } from '../../../contract/staff'
import { staffAuthor } from '../services/audit'
import { decideReviews, reviewQueue } from '../services/reviews'
import { replies, routes } from './typed'

/**
 * The review queue under /admin/api/reviews (docs/lifecycle.md): the shop's returns waiting for
 * review, and the staff's decisions on one or many.
 */
export const staffReviewRoutes = routes((app, context) => {
  app.get(
    '/reviews',
    { config: { staffAction: 'reviews.decide' }, schema: { response: replies({ 200: ReviewQueue }) } },
    async (request) => reviewQueue(context, request.staff.shop),
  )

  app.post(
    '/reviews',
    {
      config: { staffAction: 'reviews.decide' },
      schema: { body: ReviewDecision, response: replies({ 200: ReviewDecided }) },
    },
    async (request) => decideReviews(context, request.staff, request.body, staffAuthor(request)),
  )
})
