import type { LightMyRequestResponse } from 'fastify'
import type { ReturnStatus } from '../../contract/api'
import type { Insights, Inspection, InspectionPreview, ReturnDetail, ReturnList } from '../../contract/staff'
import { signStatus } from '../src/domain/token'
import { renderEmail } from '../src/email/renderEmail'
import type { EmailPayload } from '../src/storage/outbox'
import { ShopRepository } from '../src/storage/shops'
import { buildLine, buildOrder, buildProduct, buildShop, returnItem } from './builders'
import { engines, loadShops, NOW, startApi, submitted, type TestApi, verified, demoStaffCookie } from './harness'

/**
 * Inspection unit by unit (docs/decisions/0085-inspection-per-unit.md): three tees in M at 19.99
 * (10% opened is 1.99 a unit, 50% damaged 9.99), and two tees in S to exchange. The tee in M is
 * out of stock until a restock.
 */
const HOST = 'demo.localhost'
const EUR = (amount: string) => ({ amount, currency_code: 'EUR' })
const kim = buildOrder({
  name: '#2001',
  email: 'kim@example.com',
  line_items: [
    buildLine({ id: 'kim-tees', variant_id: 'tee-m', price: '19.99', quantity: 3 }),
    buildLine({ id: 'kim-swap', variant_id: 'tee-s', price: '19.99', quantity: 2 }),
  ],
})
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct({ outOfStock: ['M'] })],
  orders: [kim],
  policy: { deductions: { opened: 10, damaged: 50 } },
})

describe.each(engines())('inspection unit by unit on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0, signInPerClient: 1000 },
    })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops; DELETE FROM outbox')
    await loadShops(api.db, [DEMO])
    cookie = await demoStaffCookie(api)
  })

  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: HOST, cookie } })
  const post = (url: string, payload: unknown) =>
    api.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      payload: payload as Record<string, unknown>,
    })
  const json = <T>(response: LightMyRequestResponse, status = 200) => {
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status })
    return response.json<T>()
  }
  const status = async (id: string) =>
    json<ReturnStatus>(
      await api.app.inject({
        method: 'GET',
        url: `/portal-registration/returns/${id}/status?signature=${signStatus(Buffer.from('test-secret'), id)}`,
      }),
    )
  /** kim sends back the three tees in M (59.97), and, when asked, exchanges the two in S. */
  const kimReturns = async (swap = false) => {
    const order = await verified(api.app, DEMO, kim)
    const made = await submitted(api.app, order.token, {
      items: [
        returnItem('kim-tees', { quantity: 3 }),
        ...(swap ? [returnItem('kim-swap', { quantity: 2, exchange_variant_id: 'tee-l' })] : []),
      ],
      refund_method: 'original_payment',
    })
    return made.id!
  }
  const inspect = (id: string, body: unknown) => post(`/admin/api/returns/${id}/inspection`, body)
  const preview = (id: string, body: unknown) => post(`/admin/api/returns/${id}/inspection/preview`, body)
  const mixed = {
    refund: true,
    items: [
      {
        line_item_id: 'kim-tees',
        note: 'One torn',
        units: [
          { condition: 'damaged', disposition: 'dispose' },
          { condition: 'as_new', disposition: 'restock' },
          { condition: 'opened', disposition: 'refurbish' },
        ],
      },
    ],
  }
  const damaged = { line_item_id: 'kim-tees', title: 'Classic Tee', condition: 'damaged', percent: 50 }
  const opened = { line_item_id: 'kim-tees', title: 'Classic Tee', condition: 'opened', percent: 10 }

  test("each unit's deduction is its own percent rounded down; the refund everywhere is less their sum", async () => {
    const id = await kimReturns()
    const shown = json<InspectionPreview>(await preview(id, mixed))
    // 59.97 less 9.99 (50% of 19.99, rounded down) and 1.99 (10%, rounded down).
    expect(shown.refund).toMatchObject({
      before: EUR('59.97'),
      deductions: [
        { ...damaged, amount: EUR('9.99') },
        { ...opened, amount: EUR('1.99') },
      ],
      amount: EUR('47.99'),
    })
    expect(shown.restock).toEqual([{ line_item_id: 'kim-tees', variant: 'Classic Tee – M' }])

    const recorded = json<Inspection[]>(await inspect(id, mixed))
    expect(
      recorded.map((row) => [row.unit, row.condition, row.disposition, row.deduction?.amount.amount ?? null]),
    ).toEqual([
      [{ number: 1, of: 3 }, 'damaged', 'dispose', '9.99'],
      [{ number: 2, of: 3 }, 'as_new', 'restock', null],
      [{ number: 3, of: 3 }, 'opened', 'refurbish', '1.99'],
    ])
    // The item's note and photos are told once, with its first unit.
    expect(recorded.map((row) => row.note)).toEqual(['One torn', null, null])
    expect(recorded[1]!.restocked_variant).toBe('Classic Tee – M')

    const after = await status(id)
    expect(after.items.map((item) => item.state)).toEqual(['refunded'])
    expect(after.refund).toMatchObject({
      amount: EUR('47.99'),
      before_deductions: EUR('59.97'),
      deductions: [
        { ...damaged, amount: EUR('9.99') },
        { ...opened, amount: EUR('1.99') },
      ],
    })
    expect(json<ReturnList>(await get('/admin/api/returns')).returns[0]!.refund).toEqual(EUR('47.99'))
    expect(json<Insights>(await get('/admin/api/insights')).outcomes.refunded).toEqual(EUR('47.99'))
    // The shopper's refund e-mail, rendered as the delivery loop renders it, says the same amount.
    const [mail] = await api.db.query<{ payload: EmailPayload }>(
      "SELECT payload FROM outbox WHERE return_id = $1 AND event = 'email.refunded'",
      [id],
    )
    const shop = await new ShopRepository(api.db).find('demo')
    const refundEmail = await renderEmail(shop!, kim.email, mail!.payload, Buffer.from('test-secret'))
    expect(refundEmail.text).toContain('€47.99 to your original payment method')
    expect(refundEmail.text).toContain('Condition: damaged · 50% deducted: €9.99')
    expect(refundEmail.text).toContain('Condition: opened · 10% deducted: €1.99')
    expect(refundEmail.text).toContain('Your refund: €47.99')
    // One unit restocked: the variant is back on sale.
    expect((await verified(api.app, DEMO, kim)).exchange_data!.variants['tee-m']!.available).toBe(true)
    const detail = json<ReturnDetail>(await get(`/admin/api/returns/${id}`))
    expect(detail.inspections).toHaveLength(3)
  })

  test('two units in the same condition are one deduction of both on the status page', async () => {
    const id = await kimReturns()
    const unit = { condition: 'damaged', disposition: 'dispose' }
    json(await inspect(id, { refund: true, items: [{ line_item_id: 'kim-tees', units: [unit, unit, unit] }] }))
    expect((await status(id)).refund).toMatchObject({
      amount: EUR('30.00'),
      deductions: [{ ...damaged, amount: EUR('29.97') }],
    })
  })

  test('nothing restocked, nothing back on sale; a missing unit is not received, the others are', async () => {
    const id = await kimReturns()
    json(
      await inspect(id, {
        items: [
          {
            line_item_id: 'kim-tees',
            units: [
              { condition: 'missing' },
              { condition: 'opened', disposition: 'dispose' },
              { condition: 'missing' },
            ],
          },
        ],
      }),
    )
    expect((await status(id)).items.map((item) => item.state)).toEqual(['received'])
    // Read from the shop's row: the shop cache of this process may hold an earlier test's catalogue.
    const [shop] = await api.db.query<{ available: boolean }>(
      `SELECT (v -> 'available')::boolean AS available
         FROM shops, jsonb_array_elements(catalogue) AS p, jsonb_array_elements(p -> 'variants') AS v
        WHERE shops.id = 'demo' AND v ->> 'id' = 'tee-m'`,
    )
    expect(shop!.available).toBe(false)
  })

  test('the line inspected as a whole, as before units: every unit in its condition, each rounded down', async () => {
    const id = await kimReturns()
    const recorded = json<Inspection[]>(
      await inspect(id, {
        refund: true,
        items: [{ line_item_id: 'kim-tees', condition: 'opened', disposition: 'refurbish' }],
      }),
    )
    expect(recorded).toHaveLength(1)
    expect(recorded[0]).not.toHaveProperty('unit')
    // 3 × 1.99, not 10% of 59.97 (5.997) rounded once.
    expect(recorded[0]!.deduction).toMatchObject({ ...opened, amount: EUR('5.97') })
    expect((await status(id)).refund).toMatchObject({ amount: EUR('54.00') })
  })

  test('an exchange is held when any one of its units is found in a holding condition', async () => {
    const id = await kimReturns(true)
    const body = {
      items: [
        { line_item_id: 'kim-tees', condition: 'as_new', disposition: 'restock' },
        {
          line_item_id: 'kim-swap',
          units: [
            { condition: 'as_new', disposition: 'restock' },
            { condition: 'wrong_item', disposition: 'dispose' },
          ],
        },
      ],
      refund: true,
    }
    const held = {
      line_item_id: 'kim-swap',
      title: 'Classic Tee · S',
      condition: 'wrong_item',
      exchange_variant_title: 'L',
    }
    expect(json<InspectionPreview>(await preview(id, body)).held).toEqual([held])
    json(await inspect(id, body))
    expect(json<ReturnDetail>(await get(`/admin/api/returns/${id}`)).held).toEqual([held])
    expect((await status(id)).items.map((item) => item.state)).toEqual(['refunded', 'received'])
  })

  test('units must be one for each unit returned, each with a disposition unless missing', async () => {
    const id = await kimReturns()
    const refused = async (item: Record<string, unknown>) => {
      const response = await inspect(id, { items: [{ line_item_id: 'kim-tees', ...item }] })
      expect(response.statusCode).toBe(422)
      return response.json<{ message: string }>().message
    }
    expect(await refused({ units: [{ condition: 'as_new', disposition: 'restock' }] })).toBe(
      'items[0].units: one for each of the 3 units returned, not 1',
    )
    expect(
      await refused({
        units: [{ condition: 'as_new', disposition: 'restock' }, { condition: 'opened' }, { condition: 'missing' }],
      }),
    ).toBe('items[0].units[1].disposition: say what becomes of the item (restock, refurbish or dispose)')
    expect(await refused({})).toBe('items[0].condition: say what condition the item came back in')
    const [rows] = await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM return_inspections')
    expect(Number(rows!.n)).toBe(0)
  })

  test('a row recorded before units (unit 0) reads as every unit of its line', async () => {
    const id = await kimReturns()
    // As migration 21 left the rows before it: one for the line.
    await api.db.query(
      `INSERT INTO return_inspections (return_id, line_item_id, condition, disposition, percent, deduction_minor,
                                       inspected_at, inspected_by)
       VALUES ($1, 'kim-tees', 'opened', 'refurbish', 10, 599, $2, 'staff@demo.example')`,
      [id, NOW],
    )
    const detail = json<ReturnDetail>(await get(`/admin/api/returns/${id}`))
    expect(detail.inspections.map((row) => [row.line_item_id, row.condition, row.deduction?.amount])).toEqual([
      ['kim-tees', 'opened', EUR('5.99')],
    ])
    expect(detail.inspections[0]).not.toHaveProperty('unit')
    // The line is inspected: it is not inspected again.
    expect((await inspect(id, mixed)).statusCode).toBe(422)
  })
})
