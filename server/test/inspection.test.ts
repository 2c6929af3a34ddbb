import type { LightMyRequestResponse } from 'fastify'
import type { ReturnStatus, UploadedPhoto, VerifiedOrder } from '../../contract/api'
import type {
  Insights,
  Inspection,
  InspectionPreview,
  ReceiveFound,
  ReturnDetail,
  ReturnList,
  StaffItemsMoved,
  StaffPhoto,
} from '../../contract/staff'
import { qrCodeValue } from '../src/domain/label'
import { dropOffCodeSql, findDeductions, findInspections } from '../src/storage/inspections'
import { findOrderById } from '../src/storage/orders'
import { findReturnedLines } from '../src/storage/returnStates'
import { findShopReturn, readShopReturn } from '../src/storage/staffReturns'
import { findStoreCredit } from '../src/storage/storeCredits'
import { signStatus } from '../src/domain/token'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop, returnItem } from './builders'
import {
  bearer,
  counted,
  engines,
  loadShops,
  NOW,
  startApi,
  submitted,
  type TestApi,
  verified,
  demoStaffCookie,
} from './harness'
import { photo } from './images'

const HOST = 'demo.localhost'
const EUR = (amount: string) => ({ amount, currency_code: 'EUR' })

/**
 * #1001: a jacket at 45.00 (opened: 10% is 4.50), a tee in M at 19.99 (10% is 1.999, so 1.99) and
 * a 4.00 mug the shopper keeps. The tee in M is out of stock until a restock.
 */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'jane-jacket', variant_id: 'jacket-default', price: '45.00' }),
    buildLine({ id: 'jane-tee', variant_id: 'tee-m', price: '19.99' }),
    buildLine({ id: 'jane-mug', variant_id: 'mug-default', price: '4.00' }),
  ],
})
/** Another order with a tee: its exchange offers show the catalogue's tee in M. */
const sam = buildOrder({
  name: '#1002',
  email: 'sam@example.com',
  line_items: [buildLine({ id: 'sam-tee', variant_id: 'tee-s' })],
})
const DEMO = buildShop({
  shop: 'demo',
  // "damaged" asks for a photo: the shopper's photos on the return's page.
  return_reasons: [buildReason('changed_mind'), buildReason('damaged', { photos_required: 1 })],
  settings: {
    keep_item_below: '5.00',
    // Store credit goes out at once, at submission (decision 0057: what an inspection then says).
    refund_timing: { store_credit: { from_days: 0, to_days: 0, business_days: false, after: 'submit' } },
  },
  catalogue: [
    buildProduct({ outOfStock: ['M'] }),
    buildProduct({ id: 'jacket', title: 'Rain Jacket', sizes: [], price: '45.00' }),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '4.00' }),
  ],
  orders: [jane, sam],
  policy: { deductions: { opened: 10, damaged: 50 } },
})
/** Another shop, with an order and a return of the same names. */
const ada = buildOrder({ name: '#1001', email: 'ada@example.com', line_items: [buildLine({ id: 'ada-tee' })] })
const ACME = buildShop({ shop: 'acme', orders: [ada] })

describe.each(engines())('receiving and inspection on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    // A sign-in before each test, from one client: more than the limit a minute allows.
    api = await startApi(engine, [], {
      limits: { verifyPerClient: 1000, verifyPerOrder: 1000, verifyFailureFloorMs: 0, signInPerClient: 1000 },
    })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops; DELETE FROM outbox; DELETE FROM webhook_endpoints')
    await loadShops(api.db, [DEMO, ACME])
    cookie = await demoStaffCookie(api)
    await addEndpoint(
      api.db,
      'demo',
      { url: 'https://hooks.example/returns', secret: `whsec_${'A'.repeat(32)}`, events: ['return.refunded'] },
      NOW,
    )
  })

  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: HOST, cookie } })
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    api.app.inject({
      method: 'POST',
      url,
      headers: { host: HOST, cookie, origin: `http://${HOST}`, ...headers },
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
  /** jane sends back the jacket and the tee, and keeps the mug: 68.99 back (64.99 without the mug). */
  const janeReturns = async (lines = ['jane-jacket', 'jane-tee', 'jane-mug']) => {
    const order = await verified(api.app, DEMO, jane)
    const made = await submitted(api.app, order.token, {
      items: lines.map((line) => returnItem(line)),
      refund_method: 'original_payment',
    })
    return { order, id: made.id! }
  }
  const inspect = (id: string, body: unknown) => post(`/admin/api/returns/${id}/inspection`, body)
  const preview = (id: string, body: unknown) => post(`/admin/api/returns/${id}/inspection/preview`, body)
  const uploadPhoto = async (id: string, lineItemId: string, bytes?: Buffer) =>
    post(`/admin/api/returns/${id}/photos?line_item_id=${lineItemId}`, bytes ?? (await photo()), {
      'content-type': 'image/png',
    })
  const opened = { items: [{ line_item_id: 'jane-jacket', condition: 'opened', disposition: 'refurbish' }] }

  describe('receiving', () => {
    test('finds the return by its drop-off code however it is typed, and by its number', async () => {
      const { id } = await janeReturns()
      const code = qrCodeValue(id)
      const digits = code.slice(3)
      const expected: ReceiveFound = { return_id: id, name: '#1001-R1' }
      for (const typed of [code, code.toLowerCase(), digits, ` RB ${digits.slice(0, 4)} ${digits.slice(4)} `]) {
        expect(json<ReceiveFound>(await get(`/admin/api/receive?code=${encodeURIComponent(typed)}`))).toEqual(expected)
      }
      for (const typed of ['#1001-R1', '1001-r1', ' #1001-R1 '])
        expect(json<ReceiveFound>(await get(`/admin/api/receive?code=${encodeURIComponent(typed)}`))).toEqual(expected)
    })

    test('the code SQL gives a return is the label’s, for the returns migration 11 gave theirs', async () => {
      const ids = [(await janeReturns()).id, 'ABC-def_123', '3f1c2b9e-8d4a-4c1e-9b7a-2e5d6f8a9c01']
      for (const id of ids) {
        const [row] = await api.db.query<{ code: string }>(`SELECT ${dropOffCodeSql('$1::text')} AS code`, [id])
        expect({ id, code: row!.code }).toEqual({ id, code: qrCodeValue(id) })
      }
    })

    test("another shop's return is never found, by code or by number; an unknown one is a 404 with words", async () => {
      await janeReturns()
      const acmeOrder = await verified(api.app, ACME, ada)
      const acme = await submitted(api.app, acmeOrder.token, {
        items: [returnItem('ada-tee')],
        refund_method: 'original_payment',
      })
      const foreign = await get(`/admin/api/receive?code=${qrCodeValue(acme.id!)}`)
      expect(foreign.statusCode).toBe(404)
      expect(foreign.json()).toEqual({
        error: 'not_found',
        message: `No return of this shop has the drop-off code ${qrCodeValue(acme.id!)}.`,
      })
      // #1001-R1 of this shop is jane's, not acme's return of the same number.
      expect(json<ReceiveFound>(await get('/admin/api/receive?code=%231001-R1')).return_id).not.toBe(acme.id)
      const unknown = await get('/admin/api/receive?code=%231001-R9')
      expect(unknown.statusCode).toBe(404)
      expect(unknown.json()).toEqual({ error: 'not_found', message: 'This shop has no return #1001-R9.' })
      const neither = await get('/admin/api/receive?code=hello')
      expect(neither.statusCode).toBe(404)
      expect(neither.json<{ message: string }>().message).toMatch(/neither a drop-off code .* nor a return number/)
    })

    test.each([
      ['a number that also reads as a code', 'AC1001-R1', 'This shop has no return AC1001-R1.'],
      ['a number without its #', ' 1001-r9 ', 'This shop has no return 1001-r9.'],
      ['a scanned code', 'RB-DY1M-DQ2X', 'No return of this shop has the drop-off code RB-DY1MDQ2X.'],
    ])('a return not found is named as typed: %s', async (_name, typed, message) => {
      await janeReturns()
      const response = await get(`/admin/api/receive?code=${encodeURIComponent(typed)}`)
      expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
        status: 404,
        body: { error: 'not_found', message },
      })
    })

    test('without a session nothing is found', async () => {
      const { id } = await janeReturns()
      const response = await api.app.inject({
        method: 'GET',
        url: `/admin/api/receive?code=${qrCodeValue(id)}`,
        headers: { host: HOST },
      })
      expect(response.statusCode).toBe(401)
    })
  })

  describe('inspection', () => {
    test('the preview shows the deductions (rounded down) and the restock, and changes nothing', async () => {
      const { id } = await janeReturns()
      const body = {
        items: [
          { line_item_id: 'jane-jacket', condition: 'opened', disposition: 'refurbish' },
          { line_item_id: 'jane-tee', condition: 'opened', disposition: 'restock' },
        ],
      }
      expect(json<InspectionPreview>(await preview(id, body))).toEqual({
        refund: {
          method: 'original_payment',
          before: EUR('68.99'),
          deductions: [
            {
              line_item_id: 'jane-jacket',
              title: 'Rain Jacket',
              condition: 'opened',
              percent: 10,
              amount: EUR('4.50'),
            },
            { line_item_id: 'jane-tee', title: 'Classic Tee', condition: 'opened', percent: 10, amount: EUR('1.99') },
          ],
          amount: EUR('62.50'),
          forgone: [],
        },
        restock: [{ line_item_id: 'jane-tee', variant: 'Classic Tee – M' }],
        held: [],
        refunded_with: [],
      })
      const shown = await status(id)
      expect(shown.refund).toMatchObject({ amount: EUR('68.99') })
      expect(shown.refund).not.toHaveProperty('deductions')
      expect(shown.items.map((item) => item.state)).toEqual(['requested', 'requested', 'requested'])
      const [rows] = await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM return_inspections')
      expect(Number(rows!.n)).toBe(0)
    })

    test('recorded with the refund: the items are refunded less the deductions, on the status page, the webhook and the e-mail', async () => {
      const { id } = await janeReturns(['jane-jacket', 'jane-tee'])
      const recorded = json<Inspection[]>(
        await inspect(id, {
          refund: true,
          items: [
            { line_item_id: 'jane-jacket', condition: 'damaged', disposition: 'dispose', note: ' Torn sleeve ' },
            { line_item_id: 'jane-tee', condition: 'as_new', disposition: 'refurbish' },
          ],
        }),
      )
      expect(recorded).toEqual([
        {
          line_item_id: 'jane-jacket',
          condition: 'damaged',
          disposition: 'dispose',
          note: 'Torn sleeve',
          photos: [],
          deduction: {
            line_item_id: 'jane-jacket',
            title: 'Rain Jacket',
            condition: 'damaged',
            percent: 50,
            amount: EUR('22.50'),
          },
          restocked_variant: null,
          inspected_at: NOW.toISOString(),
          inspected_by: 'staff@demo.example',
        },
        expect.objectContaining({ line_item_id: 'jane-tee', condition: 'as_new', deduction: null }),
      ])
      const shown = await status(id)
      expect(shown.items.map((item) => item.state)).toEqual(['refunded', 'refunded'])
      const refund = {
        amount: EUR('42.49'),
        before_deductions: EUR('64.99'),
        deductions: [
          {
            line_item_id: 'jane-jacket',
            title: 'Rain Jacket',
            condition: 'damaged',
            percent: 50,
            amount: EUR('22.50'),
          },
        ],
      }
      expect(shown.refund).toMatchObject(refund)
      // The console's list and its export say what the shopper gets back now, too.
      const listed = json<ReturnList>(await get('/admin/api/returns'))
      expect(listed.returns.find((entry) => entry.id === id)?.refund).toEqual(EUR('42.49'))
      // So do the insights' figure of what was refunded.
      expect(json<Insights>(await get('/admin/api/insights')).outcomes.refunded).toEqual(EUR('42.49'))
      const events = await api.db.query<{ event: string; payload: { data?: ReturnStatus; status?: ReturnStatus } }>(
        'SELECT event, payload FROM outbox WHERE return_id = $1 ORDER BY seq',
        [id],
      )
      const refunded = events.filter((row) => row.event === 'return.refunded' || row.event === 'email.refunded')
      expect(refunded.map((row) => row.event).sort()).toEqual(['email.refunded', 'return.refunded'])
      for (const row of refunded) expect((row.payload.data ?? row.payload.status)!.refund).toMatchObject(refund)

      // The timeline's action, by whom.
      const actions = await api.db.query<{ kind: string; actor: string }>(
        'SELECT kind, actor FROM return_actions WHERE return_id = $1',
        [id],
      )
      expect(actions).toEqual([{ kind: 'inspected', actor: 'staff@demo.example' }])
    })

    test('recorded without the refund: the items are received, and the refund shown is already less the deductions', async () => {
      const { id } = await janeReturns()
      json<Inspection[]>(await inspect(id, opened))
      const shown = await status(id)
      expect(shown.items.map((item) => item.state)).toEqual(['received', 'requested', 'requested'])
      expect(shown.refund).toMatchObject({ amount: EUR('64.49'), before_deductions: EUR('68.99') })
      // The next inspection's preview counts the earlier deduction too.
      const next = json<InspectionPreview>(
        await preview(id, { items: [{ line_item_id: 'jane-tee', condition: 'opened', disposition: 'dispose' }] }),
      )
      expect(next.refund!.deductions.map((each) => each.amount)).toEqual([EUR('4.50'), EUR('1.99')])
      expect(next.refund!.amount).toEqual(EUR('62.50'))
    })

    test("restock puts the variant back on sale: another order's exchange offers show it available", async () => {
      const before = await verified(api.app, DEMO, sam)
      expect(before.exchange_data!.variants['tee-m']!.available).toBe(false)
      const { id } = await janeReturns()
      const recorded = json<Inspection[]>(
        await inspect(id, { items: [{ line_item_id: 'jane-tee', condition: 'as_new', disposition: 'restock' }] }),
      )
      expect(recorded[0]!.restocked_variant).toBe('Classic Tee – M')
      const after: VerifiedOrder = await verified(api.app, DEMO, sam)
      expect(after.exchange_data!.variants['tee-m']!.available).toBe(true)
      // Only that variant changed.
      expect(after.exchange_data!.variants['tee-s']).toEqual(before.exchange_data!.variants['tee-s'])
      const [row] = await api.db.query<{ restocked_variant_id: string }>(
        'SELECT restocked_variant_id FROM return_inspections WHERE return_id = $1',
        [id],
      )
      expect(row!.restocked_variant_id).toBe('tee-m')
    })

    test('an exchanged item is inspected without a deduction: the exchange refunds nothing', async () => {
      const order = await verified(api.app, DEMO, sam)
      const made = await submitted(api.app, order.token, {
        items: [returnItem('sam-tee', { exchange_variant_id: 'tee-l' })],
        refund_method: 'original_payment',
      })
      const body = { items: [{ line_item_id: 'sam-tee', condition: 'damaged', disposition: 'dispose' }] }
      expect(json<InspectionPreview>(await preview(made.id!, body))).toEqual({
        refund: null,
        restock: [],
        held: [],
        refunded_with: [],
      })
      expect(json<Inspection[]>(await inspect(made.id!, body))[0]!.deduction).toBeNull()
    })

    test.each([
      ['an item inspected before', opened, [opened], 'items[0]: Rain Jacket is already inspected'],
      [
        'a kept item',
        { items: [{ line_item_id: 'jane-mug', condition: 'as_new', disposition: 'restock' }] },
        [],
        'items[0]: Ceramic Mug is kept by the shopper (never sent back), so it is not inspected',
      ],
      [
        'every problem at once, each named',
        {
          items: [
            { line_item_id: 'nope', condition: 'opened', disposition: 'dispose' },
            { line_item_id: 'jane-tee', condition: 'opened', disposition: 'dispose' },
            { line_item_id: 'jane-tee', condition: 'opened', disposition: 'dispose' },
          ],
        },
        [],
        'items[0].line_item_id: "nope" is not an item of this return; items[2].line_item_id: "jane-tee" is listed twice',
      ],
    ])('refused with 422: %s, on preview and record alike', async (_name, body, earlier, message) => {
      const { id } = await janeReturns()
      for (const each of earlier) json(await inspect(id, each))
      for (const response of [await preview(id, body), await inspect(id, body)]) {
        expect(response.statusCode).toBe(422)
        expect(response.json()).toEqual({ error: 'invalid_inspection', message })
      }
    })

    test('an item refunded already (through the status API) is refused', async () => {
      const { id } = await janeReturns()
      json(
        await post(`/admin/api/returns/${id}/status`, {
          state: 'refunded',
          line_item_ids: ['jane-jacket'],
          confirm_amount: '68.99',
        }),
      )
      const response = await inspect(id, opened)
      expect(response.statusCode).toBe(422)
      expect(response.json<{ message: string }>().message).toBe('items[0]: Rain Jacket is already refunded')
    })

    test.each([
      ['pending', /waiting for review/],
      ['rejected', /rejected/],
    ])('a return whose review is %s cannot be inspected: 409, nothing recorded', async (review, message) => {
      const { id } = await janeReturns()
      await api.db.query('UPDATE returns SET review = $2 WHERE id = $1', [id, review])
      for (const response of [await preview(id, opened), await inspect(id, opened)]) {
        expect(response.statusCode).toBe(409)
        const refused = response.json<{ error: string; message: string }>()
        expect(refused.error).toBe('not_approved')
        expect(refused.message).toMatch(message)
      }
      const rows = await api.db.query('SELECT 1 FROM return_inspections')
      expect(rows).toHaveLength(0)
    })

    test("another shop's return and an unknown one are not found", async () => {
      const acmeOrder = await verified(api.app, ACME, ada)
      const acme = await submitted(api.app, acmeOrder.token, {
        items: [returnItem('ada-tee')],
        refund_method: 'original_payment',
      })
      const body = { items: [{ line_item_id: 'ada-tee', condition: 'opened', disposition: 'dispose' }] }
      for (const id of [acme.id!, 'ret_unknown'])
        for (const response of [await preview(id, body), await inspect(id, body), await uploadPhoto(id, 'ada-tee')])
          expect({ status: response.statusCode, body: response.json<unknown>() }).toEqual({
            status: 404,
            body: { error: 'not_found', message: 'No such return.' },
          })
    })
  })

  describe('holds, missing items and issuing the refund', () => {
    const outbox = async (id: string) =>
      (await api.db.query<{ event: string }>('SELECT event FROM outbox WHERE return_id = $1 ORDER BY seq', [id])).map(
        (row) => row.event,
      )
    const detailOf = async (id: string) => json<ReturnDetail>(await get(`/admin/api/returns/${id}`))
    const samExchanges = async () => {
      const order = await verified(api.app, DEMO, sam)
      const made = await submitted(api.app, order.token, {
        items: [returnItem('sam-tee', { exchange_variant_id: 'tee-l' })],
        refund_method: 'original_payment',
      })
      return made.id!
    }
    const held = {
      line_item_id: 'sam-tee',
      title: 'Classic Tee · S',
      condition: 'wrong_item',
      exchange_variant_title: 'L',
    }

    test('an exchange inspected as the wrong item waits for staff: the preview says so, and no new item is sent', async () => {
      const id = await samExchanges()
      const body = {
        refund: true,
        items: [{ line_item_id: 'sam-tee', condition: 'wrong_item', disposition: 'dispose' }],
      }
      expect(json<InspectionPreview>(await preview(id, body)).held).toEqual([held])
      json(await inspect(id, body))
      expect((await status(id)).items.map((item) => item.state)).toEqual(['received'])
      expect(await outbox(id)).not.toContain('email.new_item_sent')
      expect((await detailOf(id)).held).toEqual([held])
      // Staff decide: the new item goes (the item has arrived, so no question is asked).
      json(await post(`/admin/api/returns/${id}/status`, { state: 'refunded' }))
      expect(await outbox(id)).toContain('email.new_item_sent')
      expect((await detailOf(id)).held).toEqual([])
    })

    test('a condition the shop marks as holding holds an exchange too; one it does not, sends the new item', async () => {
      const body = { refund: true, items: [{ line_item_id: 'sam-tee', condition: 'damaged', disposition: 'dispose' }] }
      const sent = await samExchanges()
      expect(json<InspectionPreview>(await preview(sent, body)).held).toEqual([])
      json(await inspect(sent, body))
      expect(await outbox(sent)).toContain('email.new_item_sent')

      const policy = await api.app.inject({
        method: 'PUT',
        url: '/admin/api/policy',
        headers: { host: HOST, cookie, origin: `http://${HOST}` },
        payload: { deductions: { opened: 10, damaged: 50 }, hold: ['damaged'] },
      })
      expect(policy.statusCode).toBe(200)
      const order = await verified(api.app, DEMO, jane)
      const made = await submitted(api.app, order.token, {
        items: [returnItem('jane-tee', { exchange_variant_id: 'tee-l' })],
        refund_method: 'original_payment',
      })
      const id = made.id!
      const janes = { items: [{ ...body.items[0]!, line_item_id: 'jane-tee' }], refund: true }
      expect(json<InspectionPreview>(await preview(id, janes)).held).toEqual([
        { ...held, line_item_id: 'jane-tee', title: 'Classic Tee · M', condition: 'damaged' },
      ])
      json(await inspect(id, janes))
      expect(await outbox(id)).not.toContain('email.new_item_sent')
    })

    test('issuing the refund finishes the return: the kept item is refunded with the rest, and the shopper is told', async () => {
      const { id } = await janeReturns()
      const body = {
        refund: true,
        items: [
          { line_item_id: 'jane-jacket', condition: 'as_new', disposition: 'restock' },
          { line_item_id: 'jane-tee', condition: 'as_new', disposition: 'refurbish' },
        ],
      }
      expect(json<InspectionPreview>(await preview(id, body)).refunded_with).toEqual(['Ceramic Mug'])
      json(await inspect(id, body))
      expect((await status(id)).items.map((item) => item.state)).toEqual(['refunded', 'refunded', 'refunded'])
      expect((await detailOf(id)).summary.state).toBe('refunded')
      expect(await outbox(id)).toEqual(expect.arrayContaining(['email.refunded', 'return.refunded']))
    })

    test('a missing item is refunded and restocked for nothing, and is never received; the preview leaves it out', async () => {
      const { id } = await janeReturns(['jane-jacket', 'jane-tee'])
      const body = {
        refund: true,
        items: [
          { line_item_id: 'jane-jacket', condition: 'as_new', disposition: 'refurbish' },
          // A disposition given for a missing item changes nothing: there is nothing to restock.
          { line_item_id: 'jane-tee', condition: 'missing', disposition: 'restock' },
        ],
      }
      const missing = {
        line_item_id: 'jane-tee',
        title: 'Classic Tee',
        condition: 'missing',
        percent: 100,
        amount: EUR('19.99'),
      }
      const shown = json<InspectionPreview>(await preview(id, body))
      expect(shown.refund).toMatchObject({ before: EUR('64.99'), deductions: [missing], amount: EUR('45.00') })
      expect(shown.restock).toEqual([])
      const recorded = json<Inspection[]>(await inspect(id, body))
      expect(recorded.find((each) => each.line_item_id === 'jane-tee')).toMatchObject({
        condition: 'missing',
        disposition: null,
        restocked_variant: null,
      })
      const after = await status(id)
      expect(after.refund).toMatchObject({ amount: EUR('45.00') })
      expect(after.items.map((item) => item.state)).toEqual(['refunded', 'refunded'])
      const events = await api.db.query<{ state: string }>(
        "SELECT state FROM return_item_events WHERE return_id = $1 AND line_item_id = 'jane-tee'",
        [id],
      )
      expect(events.map((row) => row.state)).toEqual(['refunded'])
      expect((await verified(api.app, DEMO, sam)).exchange_data!.variants['tee-m']!.available).toBe(false)
    })

    test('a missing item inspected without the refund stays unreceived; every other condition needs a disposition', async () => {
      const { id } = await janeReturns(['jane-jacket', 'jane-tee'])
      const refused = await inspect(id, { items: [{ line_item_id: 'jane-jacket', condition: 'opened' }] })
      expect(refused.statusCode).toBe(422)
      expect(refused.json<{ message: string }>().message).toBe(
        'items[0].disposition: say what becomes of the item (restock, refurbish or dispose)',
      )
      json(await inspect(id, { items: [{ line_item_id: 'jane-tee', condition: 'missing' }] }))
      expect((await status(id)).items.map((item) => item.state)).toEqual(['requested', 'requested'])
      expect(await outbox(id)).not.toContain('email.received')
    })

    test('store credit issued at submission: the preview says when, deducts nothing, and says what the deductions would take', async () => {
      const order = await verified(api.app, DEMO, jane)
      const made = await submitted(api.app, order.token, {
        items: [returnItem('jane-jacket')],
        refund_method: 'store_credit',
      })
      const shown = json<InspectionPreview>(await preview(made.id!, opened))
      expect(shown.refund).toMatchObject({
        method: 'store_credit',
        issued_at: NOW.toISOString(),
        deductions: [],
        forgone: [
          { line_item_id: 'jane-jacket', title: 'Rain Jacket', condition: 'opened', percent: 10, amount: EUR('4.50') },
        ],
      })
      expect(shown.refund!.amount).toEqual(shown.refund!.before)
    })
  })

  describe('moving items on from the return page', () => {
    const move = (id: string, body: Record<string, unknown>) => post(`/admin/api/returns/${id}/status`, body)
    const outbox = async (id: string) =>
      (await api.db.query<{ event: string }>('SELECT event FROM outbox WHERE return_id = $1 ORDER BY seq', [id])).map(
        (row) => row.event,
      )

    test('two staff on one return: the second is told by title what moved first, and the rest moves', async () => {
      const { id } = await janeReturns(['jane-jacket', 'jane-tee'])
      json(await move(id, { state: 'received', line_item_ids: ['jane-tee'] }))
      // A second page, opened before the first move, asks for both.
      const second = json<StaffItemsMoved>(
        await move(id, { state: 'received', line_item_ids: ['jane-jacket', 'jane-tee'] }),
      )
      expect({ moved: second.moved, skipped: second.skipped }).toEqual({
        moved: ['Rain Jacket'],
        skipped: ['Classic Tee · M is already received'],
      })
      expect(second.status.items.map((item) => item.state)).toEqual(['received', 'received'])
      const again = await move(id, { state: 'received', line_item_ids: ['jane-jacket', 'jane-tee'] })
      expect({ status: again.statusCode, body: again.json<unknown>() }).toEqual({
        status: 422,
        body: {
          error: 'invalid_transition',
          message: 'Nothing moved: Rain Jacket is already received; Classic Tee · M is already received.',
        },
      })
    })

    test('refunding items never received needs the amount confirmed: without it nothing moves and nobody is told', async () => {
      const { id } = await janeReturns(['jane-jacket', 'jane-tee'])
      const events = await outbox(id)
      for (const confirm of [{}, { confirm_amount: '60.00' }]) {
        const refused = await move(id, { state: 'refunded', ...confirm })
        expect({ status: refused.statusCode, body: refused.json<unknown>() }).toEqual({
          status: 409,
          body: {
            error: 'confirm_refund',
            message:
              "Rain Jacket and Classic Tee · M have not been received. Marking them refunded counts them in the return's refund of 64.99 EUR, tells the shopper and cannot be undone: confirm to go on.",
            amount: EUR('64.99'),
          },
        })
      }
      expect((await status(id)).items.map((item) => item.state)).toEqual(['requested', 'requested'])
      expect(await outbox(id)).toEqual(events)
      json(await move(id, { state: 'refunded', confirm_amount: '64.99' }))
      expect((await status(id)).items.map((item) => item.state)).toEqual(['refunded', 'refunded'])
      expect(await outbox(id)).toContain('email.refunded')
    })

    test('a fresh exchange is not sent by one click; received items and kept ones are refunded without a question', async () => {
      const order = await verified(api.app, DEMO, sam)
      const made = await submitted(api.app, order.token, {
        items: [returnItem('sam-tee', { exchange_variant_id: 'tee-l' })],
        refund_method: 'original_payment',
      })
      const refused = await move(made.id!, { state: 'refunded' })
      expect(refused.statusCode).toBe(409)
      expect(refused.json()).toEqual({
        error: 'confirm_refund',
        message:
          'Classic Tee · S has not been received. Marking it refunded sends the new item, tells the shopper and cannot be undone: confirm to go on.',
        amount: null,
      })
      expect(await outbox(made.id!)).not.toContain('email.new_item_sent')
      json(await move(made.id!, { state: 'refunded', confirm_amount: '0' }))
      expect(await outbox(made.id!)).toContain('email.new_item_sent')

      const { id } = await janeReturns()
      json(await move(id, { state: 'received', line_item_ids: ['jane-jacket', 'jane-tee'] }))
      json(await move(id, { state: 'refunded' }))
      expect((await status(id)).items.map((item) => item.state)).toEqual(['refunded', 'refunded', 'refunded'])
    })
  })

  describe('photos', () => {
    test('a photo staff take is stored with the item, read back, and named by its inspection', async () => {
      const { id } = await janeReturns()
      const taken = json<StaffPhoto>(await uploadPhoto(id, 'jane-jacket'), 201)
      expect(taken.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(taken).toEqual({
        id: taken.id,
        line_item_id: 'jane-jacket',
        url: `/admin/api/returns/${id}/photos/${taken.id}`,
      })
      const read = await get(taken.url)
      expect(read.statusCode).toBe(200)
      expect(read.headers['content-type']).toMatch(/^image\//)
      const [row] = await api.db.query<{ source: string; line_item_id: string; return_id: string }>(
        'SELECT source, line_item_id, return_id FROM photos WHERE id = $1',
        [taken.id],
      )
      expect(row).toEqual({ source: 'staff', line_item_id: 'jane-jacket', return_id: id })

      const recorded = json<Inspection[]>(
        await inspect(id, {
          items: [{ line_item_id: 'jane-jacket', condition: 'damaged', disposition: 'dispose', photo_ids: [taken.id] }],
        }),
      )
      expect(recorded[0]!.photos).toEqual([taken])
    })

    test("a photo of another item, or the shopper's, is not an inspection's", async () => {
      const { order, id } = await janeReturns()
      const ofTee = json<StaffPhoto>(await uploadPhoto(id, 'jane-tee'), 201)
      const shoppers = await api.app.inject({
        method: 'POST',
        url: '/portal-registration/photos',
        headers: { ...bearer(order.token), 'content-type': 'image/png' },
        payload: await photo(),
      })
      const shopperPhoto = shoppers.json<UploadedPhoto>().id
      const response = await inspect(id, {
        items: [
          {
            line_item_id: 'jane-jacket',
            condition: 'damaged',
            disposition: 'dispose',
            photo_ids: [ofTee.id, shopperPhoto],
          },
        ],
      })
      expect(response.statusCode).toBe(422)
      expect(response.json<{ message: string }>().message).toBe(
        `items[0].photo_ids[0]: "${ofTee.id}" is not a photo staff took of this item of this return; ` +
          `items[0].photo_ids[1]: "${shopperPhoto}" is not a photo staff took of this item of this return`,
      )
    })

    test.each([
      ['a line not of the return', 'other-line', undefined, 422],
      ['a kept item', 'jane-mug', undefined, 422],
      ['bytes that are not an image', 'jane-jacket', Buffer.from('<svg onload="alert(1)"></svg>'.padEnd(64, ' ')), 415],
      ['an empty body', 'jane-jacket', Buffer.alloc(0), 400],
    ])('an upload of %s is refused and stores nothing', async (_name, line, bytes, code) => {
      const { id } = await janeReturns()
      expect((await uploadPhoto(id, line, bytes)).statusCode).toBe(code)
      expect(await api.db.query("SELECT 1 FROM photos WHERE source = 'staff'")).toHaveLength(0)
    })

    test('at most 10 photos an item', async () => {
      const { id } = await janeReturns()
      const image = await photo()
      for (let i = 0; i < 10; i++) json(await uploadPhoto(id, 'jane-tee', image), 201)
      const over = await uploadPhoto(id, 'jane-tee', image)
      expect(over.statusCode).toBe(422)
      expect(over.json()).toMatchObject({ error: 'too_many_photos' })
    })
  })

  describe('hostile requests', () => {
    test.each([
      ['no items', { items: [] }],
      ['an unknown field', { ...opened, extra: 1 }],
      ['an unknown condition', { items: [{ line_item_id: 'jane-jacket', condition: 'meh', disposition: 'dispose' }] }],
      [
        'four photos',
        {
          items: [
            {
              line_item_id: 'jane-jacket',
              condition: 'opened',
              disposition: 'dispose',
              photo_ids: ['a', 'b', 'c', 'd'].map((c) => c.repeat(22)),
            },
          ],
        },
      ],
      ['a photo id that is not one', { items: [{ ...opened.items[0], photo_ids: ['../../etc/passwd'] }] }],
      ['a note too long', { items: [{ ...opened.items[0], note: 'x'.repeat(1001) }] }],
      ['refund that is not a boolean', { ...opened, refund: 'yes' }],
      ['a list, not an object', [opened]],
      ['a polluting key', JSON.parse('{"items":[],"__proto__":{"admin":true}}') as unknown],
    ])('a body with %s is a 400, and nothing is recorded', async (_name, body) => {
      const { id } = await janeReturns()
      for (const response of [await preview(id, body), await inspect(id, body)]) {
        expect(response.statusCode).toBe(400)
        const refused = response.json<{ error: unknown; message: unknown }>()
        expect([typeof refused.error, typeof refused.message]).toEqual(['string', 'string'])
      }
      expect(await api.db.query('SELECT 1 FROM return_inspections')).toHaveLength(0)
    })

    test('an image sent as an inspection is a 415; JSON sent as a photo is a 415; a photo without its item a 400', async () => {
      const { id } = await janeReturns()
      expect(
        (await post(`/admin/api/returns/${id}/inspection`, await photo(), { 'content-type': 'image/png' })).statusCode,
      ).toBe(415)
      expect((await post(`/admin/api/returns/${id}/photos?line_item_id=jane-tee`, opened)).statusCode).toBe(415)
      expect(
        (await post(`/admin/api/returns/${id}/photos`, await photo(), { 'content-type': 'image/png' })).statusCode,
      ).toBe(400)
    })

    test('from another site, or without a session, nothing is done', async () => {
      const { id } = await janeReturns()
      const crossSite = await api.app.inject({
        method: 'POST',
        url: `/admin/api/returns/${id}/inspection`,
        headers: { host: HOST, cookie, origin: 'https://evil.example' },
        payload: opened,
      })
      expect(crossSite.statusCode).toBe(403)
      const anonymous = await api.app.inject({
        method: 'POST',
        url: `/admin/api/returns/${id}/inspection`,
        headers: { host: HOST, origin: `http://${HOST}` },
        payload: opened,
      })
      expect(anonymous.statusCode).toBe(401)
      expect(await api.db.query('SELECT 1 FROM return_inspections')).toHaveLength(0)
    })
  })

  describe("the return's page", () => {
    test('is read in one statement, with what each of its parts reads on its own', async () => {
      // Everything a page holds: states reached, an inspection with a deduction, a staff photo,
      // a note (an action), the shopper's photo and store credit (another order's return).
      const { id } = await janeReturns()
      const taken = json<StaffPhoto>(await uploadPhoto(id, 'jane-jacket'), 201)
      json(
        await inspect(id, {
          items: [{ ...opened.items[0], photo_ids: [taken.id] }],
        }),
      )
      json(await post(`/admin/api/returns/${id}/notes`, { text: 'Box crushed' }))
      const order = await verified(api.app, DEMO, sam)
      const uploaded = json<UploadedPhoto>(
        await api.app.inject({
          method: 'POST',
          url: '/portal-registration/photos',
          headers: { ...bearer(order.token), 'content-type': 'image/png' },
          payload: await photo(),
        }),
        201,
      )
      const credited = await submitted(api.app, order.token, {
        items: [returnItem('sam-tee', { reason_id: 'damaged', photo_ids: [uploaded.id] })],
        refund_method: 'store_credit',
      })
      for (const returnId of [id, credited.id!]) {
        const { db, statements } = counted(api.db)
        const whole = await readShopReturn(db, 'demo', returnId)
        expect(statements).toHaveLength(1)
        const { photos, actions, ...parts } = whole!
        expect(parts).toEqual({
          ...(await findShopReturn(api.db, 'demo', returnId)),
          order: await findOrderById(api.db, whole!.record.order_id),
          lines: await findReturnedLines(api.db, returnId),
          inspections: await findInspections(api.db, returnId),
          deductions: await findDeductions(api.db, returnId),
          credit: await findStoreCredit(api.db, returnId),
        })
        // And the page shows them.
        const page = json<ReturnDetail>(await get(`/admin/api/returns/${returnId}`))
        expect(page.photos.map((each) => each.id)).toEqual(photos.map((each) => each.id))
        expect(page.timeline.filter((entry) => entry.kind === 'note').map((entry) => entry.note)).toEqual(
          actions.filter((action) => action.kind === 'note').map((action) => action.note),
        )
      }
      const [jacket, credit] = [
        await readShopReturn(api.db, 'demo', id),
        await readShopReturn(api.db, 'demo', credited.id!),
      ]
      expect(
        jacket!.lines.find((line) => line.line_item_id === 'jane-jacket')!.events.map((event) => event.state),
      ).toEqual(['received'])
      expect(jacket!.inspections).toMatchObject([{ line_item_id: 'jane-jacket', photo_ids: [taken.id] }])
      expect(jacket!.deductions).toEqual([
        { line_item_id: 'jane-jacket', condition: 'opened', percent: 10, deduction_minor: 450 },
      ])
      expect(jacket!.actions.map((action) => [action.kind, action.note])).toEqual([
        ['inspected', null],
        ['note', 'Box crushed'],
      ])
      expect(credit!.photos).toEqual([{ id: uploaded.id, line_item_id: 'sam-tee' }])
      expect(credit!.credit?.amount.currency_code).toBe('EUR')
      expect(credit!.credit?.code).toMatch(/\S/)
      expect(await readShopReturn(api.db, 'acme', id)).toBeNull()
    })
  })
})
