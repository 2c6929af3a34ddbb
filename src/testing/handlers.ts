import { http, HttpResponse } from 'msw'
import type { SupportReferenceRequest, VerifyRequest } from '../../contract/api'
import { buildConfig, buildOrder, buildSupportToken } from './builders'

/** The support codes the API has kept, by the reference it answered (as staff would open them). */
export const keptSupportCodes = new Map<string, string>()

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
  http.post('*/portal-registration/support-references', async ({ request }) => {
    const { code } = (await request.json()) as SupportReferenceRequest
    const reference = `7KQ2-${String(keptSupportCodes.size).padStart(4, '0')}`
    keptSupportCodes.set(reference, code)
    return HttpResponse.json({ reference, expires_at: '2026-11-27T12:00:00.000Z' }, { status: 201 })
  }),
  // The console's store connection: none, unless a test serves one (src/admin/StoreConnectionScreen.test.tsx).
  http.get('*/admin/api/store-connection', () => HttpResponse.json({ connection: null })),
  // The returns list's views' counts: zero each, unless a test serves others (src/admin/ReturnsScreen.test.tsx).
  http.get('*/admin/api/return-counts', () =>
    HttpResponse.json({ all: 0, needs_review: 0, to_receive: 0, to_refund: 0, done: 0 }),
  ),
  // A return's actions in the store: none, unless a test serves some (src/admin/EngineActions.test.tsx).
  http.get('*/admin/api/engine-actions', () => HttpResponse.json({ engine: null, actions: [] })),
]
