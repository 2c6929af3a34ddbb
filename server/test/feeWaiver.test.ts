import type { LightMyRequestResponse } from 'fastify'
import type { ReturnOrder, ReturnStatus } from '../../contract/api'
import type { ShopPolicy } from '../../contract/policy'
import type { ReturnDetail, StaffPolicy } from '../../contract/staff'
import { signStatus } from '../src/domain/token'
import { buildLine, buildOrder, buildReason, buildReturn, buildShop, returnItem } from './builders'
import { bearer, engines, loadShops, startApi, submitted, type TestApi, verified, demoStaffCookie } from './harness'

/**
 * A shop waives its return fee for the reasons it marks (decision 0062): the server prices the
 * return without it and says so, wherever the fee is shown.
 */

const HOST = 'demo.localhost'
const EUR = (amount: string) => ({
  shop_money: { amount, currency_code: 'EUR' },
  presentment_money: { amount, currency_code: 'EUR' },
})
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [buildLine({ id: 'tee', price: '25.00' }), buildLine({ id: 'mug', variant_id: 'tee-s', price: '10.00' })],
})
const REASONS = [
  buildReason('changed_mind'),
  buildReason('not_as_described', {
    children: [buildReason('damaged'), buildReason('wrong_item')],
  }),
]
const DEMO = buildShop({ shop: 'demo', settings: { return_fee: '3.95' }, return_reasons: REASONS, orders: [jane] })

describe.each(engines())('the return fee waived for marked reasons, on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [])
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops')
    await loadShops(api.db, [DEMO])
    cookie = await demoStaffCookie(api)
    // An import without a policy keeps the saved one: each test starts from none.
    ok(await savePolicy({}))
  })

  const ok = <T>(response: LightMyRequestResponse) => {
    if (response.statusCode >= 300) throw new Error(`${response.statusCode} ${response.body}`)
    return response.json<T>()
  }
  const savePolicy = (policy: ShopPolicy) =>
    api.app.inject({
      method: 'PUT',
      url: '/admin/api/policy',
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      payload: policy,
    })
  const quote = async (reasons: string[]) => {
    const { token } = await verified(api.app, DEMO, jane)
    const items = ['tee', 'mug'].slice(0, reasons.length).map((line, i) => returnItem(line, { reason_id: reasons[i]! }))
    return ok<ReturnOrder>(
      await api.app.inject({
        method: 'POST',
        url: '/portal-registration/returns/quote',
        headers: bearer(token),
        payload: buildReturn(items),
      }),
    )
  }

  test('staff mark reasons in the policy; a parent covers its sub-reasons; an unknown reason is refused', async () => {
    const saved = ok<StaffPolicy>(await savePolicy({ waive_fee_reasons: ['not_as_described'] }))
    expect(saved.policy).toEqual({ waive_fee_reasons: ['not_as_described'] })
    const refused = await savePolicy({ waive_fee_reasons: ['lost_in_post'] })
    expect(refused.statusCode).toBe(400)
    expect(refused.json<{ message: string }>().message).toContain('waive_fee_reasons[0]')
  })

  test.each<[string, string[], string, boolean]>([
    ['a marked reason (a sub-reason of the marked parent)', ['damaged'], '0.00', true],
    ['one item of two for a marked reason', ['changed_mind', 'wrong_item'], '0.00', true],
    ['no marked reason', ['changed_mind'], '3.95', false],
  ])('a quote with %s: fee %j, waived %s', async (_name, reasons, fee, waived) => {
    ok(await savePolicy({ waive_fee_reasons: ['not_as_described'] }))
    const { breakdown } = await quote(reasons)
    expect(breakdown.return_fee).toEqual(EUR(fee))
    expect(breakdown.return_fee_waived === true).toBe(waived)
  })

  test('without marked reasons the fee is taken, whatever the reason', async () => {
    const { breakdown } = await quote(['damaged'])
    expect(breakdown.return_fee).toEqual(EUR('3.95'))
    expect(breakdown).not.toHaveProperty('return_fee_waived')
  })

  test('the submitted return keeps the waiver: the refund is whole, and staff see the fee was waived', async () => {
    ok(await savePolicy({ waive_fee_reasons: ['damaged'] }))
    const { token } = await verified(api.app, DEMO, jane)
    const made = await submitted(api.app, token, buildReturn([returnItem('tee', { reason_id: 'damaged' })]))
    expect(made.breakdown).toMatchObject({ return_fee: EUR('0.00'), return_fee_waived: true, total: EUR('25.00') })
    const status = ok<ReturnStatus>(
      await api.app.inject({
        method: 'GET',
        url: `/portal-registration/returns/${made.id}/status?signature=${signStatus(Buffer.from('test-secret'), made.id!)}`,
      }),
    )
    expect(status.refund?.amount).toEqual(EUR('25.00').shop_money)
    const detail = ok<ReturnDetail>(
      await api.app.inject({ method: 'GET', url: `/admin/api/returns/${made.id}`, headers: { host: HOST, cookie } }),
    )
    expect(detail.return_order?.breakdown).toMatchObject({ return_fee_waived: true })
  })
})
