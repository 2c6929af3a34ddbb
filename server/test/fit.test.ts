import type { VerifiedOrder } from '../../contract/api'
import { engines, startApi, verified, type TestApi } from './harness'

describe.each(engines())('fit markers on reasons, on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine)
  })
  afterAll(() => api.close())

  test('verify gives the demo shop’s fit markers on too_small and too_large only, in any language', async () => {
    for (const lang of ['en', 'de']) {
      const response = await api.app.inject({
        method: 'POST',
        url: '/portal-registration/verify',
        headers: { 'accept-language': lang },
        payload: { order_name: '#1011', email: 'fit@example.com', shop: 'demo', portal_id: 'portal-demo' },
      })
      const order = response.json<VerifiedOrder>()
      expect(order.return_reasons.map((reason) => [reason.id, reason.fit ?? null])).toEqual([
        ['too_small', 'too_small'],
        ['too_large', 'too_large'],
        ['not_as_described', null],
        ['changed_mind', null],
        ['damaged', null],
        ['other', null],
      ])
    }
  })

  test('a shop without markers answers its reasons exactly as before: no fit field at all', async () => {
    const order = await verified(api.app, 'AC1001', 'ada@example.com', { shop: 'acme', portal_id: 'portal-acme' })
    expect(order.return_reasons.length).toBeGreaterThan(0)
    for (const reason of order.return_reasons)
      expect(Object.keys(reason).sort()).toEqual(['comment_required', 'id', 'label'])
  })

  test('#1011: sneakers in 41 (42 out of stock) and a rain jacket in M (S out of stock) for the fit journeys', async () => {
    const order = await verified(api.app, '#1011', 'fit@example.com')
    const data = order.exchange_data!
    expect(order.line_items.map((line) => line.variant_id)).toEqual(['sneakers-41', 'rain-jacket-m'])
    expect(data.options['sneakers-41']!.map((id) => [data.variants[id]!.title, data.variants[id]!.available])).toEqual([
      ['40', true],
      ['41', true],
      ['42', false],
      ['43', true],
      ['44', true],
    ])
    expect(data.variants['rain-jacket-s']!.available).toBe(false)
  })
})
