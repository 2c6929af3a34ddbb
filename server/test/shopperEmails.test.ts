import { randomBytes } from 'node:crypto'
import type { ReturnOrder, ReturnStatus } from '../../contract/api'
import { hashPassword } from '../src/domain/passwords'
import { STORE_CREDIT_CODE } from '../src/domain/storeCredit'
import { signStatus } from '../src/domain/token'
import { renderEmail } from '../src/email/renderEmail'
import type { EmailPayload, WebhookPayload } from '../src/storage/outbox'
import { ShopRepository } from '../src/storage/shops'
import { addStaff } from '../src/storage/staff'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { buildLine, buildOrder, buildProduct, buildReason, buildReturn, buildShop, returnItem } from './builders'
import { bearer, engines, loadShops, NOW, staffCookie, startApi, type TestApi, verified } from './harness'

/**
 * What the shopper is told by e-mail (docs/events.md), from a real submit and refund: the deal in
 * the first e-mail, store credit as a code, the shopper's language kept in the links and never
 * mixed with the shop's English texts.
 */

const PASSWORD = 'correct horse battery'
const HOST = 'north.localhost'
const SECRET = Buffer.from('test-secret')
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'li-sneakers', variant_id: 'sneakers-43', price: '89.00' }),
    buildLine({ id: 'li-mug', variant_id: 'mug-default', price: '14.00' }),
  ],
})
const NORTH = buildShop({
  shop: 'north',
  settings: {
    return_fee: '3.95',
    refund_timing: {
      original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
      store_credit: { from_days: 1, to_days: 2, business_days: true, after: 'receipt' },
    },
  },
  config: { document_title_text: 'North Store', need_help_message: 'Questions? Write to us.' },
  config_variants: { de: { need_help_message: 'Fragen? Schreiben Sie uns.' } },
  return_reasons: [buildReason('changed_mind'), buildReason('damaged')],
  catalogue: [
    buildProduct({ id: 'sneakers', title: 'Court Sneakers', sizes: ['43', '44'], price: '89.00' }),
    buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' }),
  ],
  orders: [jane],
})

describe.each(engines())('the shopper’s e-mails from a real return, on %s', (engine) => {
  let api: TestApi
  let cookie: string
  beforeAll(async () => {
    api = await startApi(engine, [])
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    await api.db.exec('DELETE FROM staff; DELETE FROM shops; DELETE FROM outbox; DELETE FROM webhook_endpoints')
    await loadShops(api.db, [NORTH])
    await addStaff(api.db, 'north', 'staff@north.example', await hashPassword(PASSWORD), NOW)
    cookie = await staffCookie(api.app, 'staff@north.example', PASSWORD, HOST)
  })

  const submit = async (items: ReturnType<typeof returnItem>[], method: ReturnOrder['refund_method'], lang = 'en') => {
    const { token } = await verified(api.app, NORTH, jane)
    const answer = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: {
        ...bearer(token),
        'idempotency-key': randomBytes(8).toString('hex'),
        'accept-language': lang,
        host: HOST,
      },
      payload: buildReturn(items, { refund_method: method }),
    })
    expect(answer.statusCode).toBe(201)
    return answer.json<ReturnOrder>()
  }
  /** The e-mail of `kind` the return's change wrote, rendered as the delivery loop renders it. */
  const email = async (returnId: string, kind: string) => {
    const [row] = await api.db.query<{ payload: EmailPayload }>(
      'SELECT payload FROM outbox WHERE return_id = $1 AND event = $2',
      [returnId, `email.${kind}`],
    )
    const shop = await new ShopRepository(api.db).find('north')
    return renderEmail(shop!, 'jane@example.com', row!.payload, SECRET)
  }
  const links = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!)

  test('the first e-mail states the deal: each item and its fate, the refund and method, the fee, the timing, where and by when', async () => {
    const made = await submit(
      [
        returnItem('li-sneakers', { exchange_variant_id: 'sneakers-44' }),
        returnItem('li-mug', { reason_id: 'damaged' }),
      ],
      'original_payment',
    )
    const { subject, text } = await email(made.id!, 'created')
    expect(subject).toBe(`Your return ${made.name} is registered`)
    // Not before the parcel is in.
    expect(text).not.toContain('We have your return')
    expect(text).toContain('YOUR RETURN IS REGISTERED')
    // Variants by their options: "Size 43", not "43".
    expect(text).toContain('Court Sneakers · Size 43')
    expect(text).toContain('Exchange for Size 44')
    expect(text).toMatch(/Ceramic Mug\s+Quantity: 1 · Refund/)
    expect(text).toContain('€10.05 to your original payment method')
    expect(text).toContain('A return fee of €3.95 is taken from it.')
    expect(text).toContain('Expect it 5 to 10 business days after your items arrive.')
    expect(text).toContain('SEND YOUR PARCEL TO')
    expect(text).toMatch(/Returns\s+Hafenstraße 12\s+20457 Hamburg\s+Germany/)
    // Within the 14 days the instructions give, from the submission (NOW, 20 November 2026).
    expect(text).toContain('Please drop it off by December 4, 2026.')
  })

  test('store credit arrives as a code with its amount, the same on the status page and in the webhook; no day to wait for', async () => {
    await addEndpoint(
      api.db,
      'north',
      { url: 'https://hooks.example/returns', secret: `whsec_${'A'.repeat(32)}`, events: ['return.refunded'] },
      NOW,
    )
    const made = await submit([returnItem('li-mug', { reason_id: 'damaged' })], 'store_credit')
    const inspected = await api.app.inject({
      method: 'POST',
      url: `/admin/api/returns/${made.id}/inspection`,
      headers: { host: HOST, cookie, origin: `http://${HOST}` },
      payload: { refund: true, items: [{ line_item_id: 'li-mug', condition: 'as_new', disposition: 'restock' }] },
    })
    expect(inspected.statusCode).toBe(200)
    const refunded = await email(made.id!, 'refunded')
    const code = refunded.text.match(/GC(-[0-9A-Z]{4}){4}/)?.[0]
    expect(code).toMatch(STORE_CREDIT_CODE)
    expect(refunded.text).toContain('Your store credit of €10.05 is ready. Your code:')
    expect(refunded.text).toContain('Enter it at checkout at North Store: you can spend it now.')
    expect(refunded.text).not.toMatch(/Expect it/)

    const status = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${made.id}/status?signature=${signStatus(SECRET, made.id!)}`,
    })
    expect(status.json<ReturnStatus>().refund?.store_credit).toEqual({
      code,
      amount: { amount: '10.05', currency_code: 'EUR' },
      issued_at: NOW.toISOString(),
    })
    const [hook] = await api.db.query<{ payload: WebhookPayload }>(
      "SELECT payload FROM outbox WHERE return_id = $1 AND event = 'return.refunded'",
      [made.id],
    )
    expect(hook!.payload.data.refund?.store_credit?.code).toBe(code)
    // One code per return, whatever else happens to it.
    const [count] = await api.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM store_credits')
    expect(Number(count!.n)).toBe(1)
  })

  test('the status link keeps the shopper’s language; a language the shop has no texts in is English, whole', async () => {
    const german = await submit([returnItem('li-mug')], 'original_payment', 'de-DE,de;q=0.9')
    const de = await email(german.id!, 'created')
    expect(de.subject).toBe(`Ihre Rücksendung ${german.name} ist angemeldet`)
    expect(de.text).toContain('Fragen? Schreiben Sie uns.')
    expect(links(de.html).filter((link) => link.includes('/status/'))).toEqual([
      expect.stringMatching(new RegExp(`^http://${HOST}(:\\d+)?/status/${german.id}\\?lang=de#`)),
    ])

    await api.db.exec('DELETE FROM outbox')
    await loadShops(api.db, [NORTH])
    const french = await submit([returnItem('li-mug')], 'original_payment', 'fr-FR')
    const fr = await email(french.id!, 'created')
    // No French texts of the shop: the whole e-mail is English, its link too.
    expect(fr.subject).toBe(`Your return ${french.name} is registered`)
    expect(fr.text).toContain('Questions? Write to us.')
    expect(fr.html).toMatch(/<html[^>]* lang="en"/)
    expect(links(fr.html).filter((link) => link.includes('/status/'))).toEqual([expect.not.stringContaining('lang=')])
  })
})
