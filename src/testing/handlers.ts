import { http, HttpResponse } from 'msw'
import type { VerifyRequest } from '../../contract/api'
import { buildConfig, buildOrder, buildSupportToken } from './builders'

/**
 * The Portal API as the portal sees it: demo's config, a verify that knows #1001, and support
 * tokens for whoever presents a token (a read-only one stays read-only, as on the server).
 */
export const handlers = [
  http.get('*/portal-registration/config/:id', () => HttpResponse.json(buildConfig())),
  http.post('*/portal-registration/verify', async ({ request }) => {
    const body = (await request.json()) as VerifyRequest
    if (body.order_name.replace(/^#/, '') === '1001' && body.email === 'jane@example.com') {
      return HttpResponse.json(buildOrder())
    }
    return HttpResponse.json({ error: 'invalid_order' }, { status: 400 })
  }),
  http.post('*/portal-registration/support-token', ({ request }) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
    if (!token)
      return HttpResponse.json(
        { error: 'session_expired', message: 'Your session has expired. Please start your return again.' },
        { status: 401 },
      )
    return HttpResponse.json(buildSupportToken(token))
  }),
]
