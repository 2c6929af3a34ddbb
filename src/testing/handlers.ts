import { http, HttpResponse } from 'msw'
import type { VerifyRequest } from '../api/contract'
import { buildConfig, buildOrder } from './builders'

/** The Portal API as the portal sees it: demo's config and a verify that knows #1001. */
export const handlers = [
  http.get('*/portal-registration/config/:id', () => HttpResponse.json(buildConfig())),
  http.post('*/portal-registration/verify', async ({ request }) => {
    const body = (await request.json()) as VerifyRequest
    if (body.order_name.replace(/^#/, '') === '1001' && body.email === 'jane@example.com') {
      return HttpResponse.json(buildOrder())
    }
    return HttpResponse.json({ error: 'invalid_order' }, { status: 400 })
  }),
]
