import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib'
import type {
  NothingToSendInstructions,
  ReturnInstructions,
  ReturnOrder,
  ReturnRequest,
  VerifiedOrder,
} from '../../contract/api'
import { DEMO_SHOP_FILES, readDemoShop } from '../src/import/demoShops'
import type { ShopFile } from '../src/import/shopFile'
import { signLabel } from '../src/domain/token'
import { bearer, eachTestWithVerifiedOrder, engines, NOW, type TestApi, verified } from './harness'

/** A fresh copy of the demo shop's file, to import under another shop id with other settings. */
const demoFile = () => readDemoShop(DEMO_SHOP_FILES[0]!) as ShopFile

const ADMIN_TOKEN = 'admin-token-for-keep-item-tests'
const SOCKS = 'li-1010-001'
const BEANIE = 'li-1010-002'

/** The strings drawn on a PDF's first page (the Tj operands), to see what a label lists. */
async function drawnText(bytes: Uint8Array): Promise<string> {
  const page = (await PDFDocument.load(bytes)).getPage(0)
  const contents = page.node.Contents()
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents]
  const source = streams
    .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
    .map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'))
    .join('\n')
  return [...source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)]
    .map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1'))
    .join('\n')
}

const amount = (bag: { presentment_money: { amount: string } } | undefined) => bag?.presentment_money.amount

/**
 * Keep-item returns on the demo shop (keep_item_below "10.00"): #1010 has socks at 9.90 (two)
 * and a beanie at 17.00, both 19 % tax included, return fee 3.95.
 */
describe.each(engines())('keep-item returns on %s', (engine) => {
  let api: TestApi
  let order: VerifiedOrder
  eachTestWithVerifiedOrder(engine, ['#1010', 'keep@example.com'], (ready) => ({ api, order } = ready), {
    adminToken: ADMIN_TOKEN,
  })

  const quote = (body: ReturnRequest, token = order.token) =>
    api.app.inject({ method: 'POST', url: '/portal-registration/returns/quote', headers: bearer(token), payload: body })
  const submit = async (body: ReturnRequest, key = 'keep-key-0001') => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(order.token), 'idempotency-key': key },
      payload: body,
    })
    expect(response.statusCode).toBe(201)
    return response.json<ReturnOrder>()
  }
  const instructionsOf = (returnId: string, lang = 'en') =>
    api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${returnId}/instructions`,
      headers: { ...bearer(order.token), 'accept-language': lang },
    })

  const socksOnly: ReturnRequest = {
    items: [{ line_item_id: SOCKS, quantity: 2, reason_id: 'changed_mind' }],
    refund_method: 'original_payment',
  }
  const mixed: ReturnRequest = {
    items: [
      { line_item_id: SOCKS, quantity: 1, reason_id: 'changed_mind' },
      { line_item_id: BEANIE, quantity: 1, reason_id: 'colour_differs' },
    ],
    refund_method: 'original_payment',
  }

  test('every item kept: each is flagged, the whole refund is kept value, and no return fee is charged', async () => {
    const response = await quote(socksOnly)
    expect(response.statusCode).toBe(200)
    const quoted = response.json<ReturnOrder>()
    expect(quoted.items.map((item) => [item.line_item_id, item.keep])).toEqual([[SOCKS, true]])
    // 2 × 9.90 = 19.80, tax included; nothing is shipped, so the 3.95 fee is not charged.
    expect(amount(quoted.breakdown.return_fee)).toBe('0.00')
    expect(amount(quoted.breakdown.kept_items)).toBe('19.80')
    expect(amount(quoted.breakdown.total)).toBe('19.80')
  })

  test('mixed: only the cheap item is kept, the fee is charged for the parcel, kept value is its part', async () => {
    const quoted = (await quote(mixed)).json<ReturnOrder>()
    expect(quoted.items.map((item) => [item.line_item_id, item.keep])).toEqual([
      [SOCKS, true],
      [BEANIE, false],
    ])
    expect(amount(quoted.breakdown.kept_items)).toBe('9.90')
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
    // 9.90 + 17.00 - 3.95
    expect(amount(quoted.breakdown.total)).toBe('22.95')
  })

  test('none kept on #1001 (tee 25.00, mug 14.00): flags false, kept value zero, the fee as before', async () => {
    const jane = await verified(api.app, '#1001', 'jane@example.com')
    const response = await quote(
      { items: [{ line_item_id: 'li-1001-002', quantity: 1, reason_id: 'changed_mind' }] },
      jane.token,
    )
    const quoted = response.json<ReturnOrder>()
    expect(quoted.items.map((item) => item.keep)).toEqual([false])
    expect(amount(quoted.breakdown.kept_items)).toBe('0.00')
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
  })

  test('verify says which items would be kept if refunded: the 9.90 socks, not the beanie', async () => {
    expect(order.line_items.map((line) => [line.id, line.keep_if_refunded])).toEqual([
      [SOCKS, true],
      [BEANIE, undefined],
    ])
  })

  test('an exchanged item is never kept, however cheap', async () => {
    // The 9.90 socks have no other variant, so use a shop whose threshold is above the tee's price.
    const file = demoFile()
    file.shop = 'cheapkeep'
    file.config.portal_id = 'portal-cheapkeep'
    file.settings.keep_item_below = '100.00'
    expect(
      (await api.app.inject({ method: 'POST', url: '/admin/shops', headers: bearer(ADMIN_TOKEN), payload: file }))
        .statusCode,
    ).toBe(201)
    const jane = await verified(api.app, '#1001', 'jane@example.com', {
      shop: 'cheapkeep',
      portal_id: 'portal-cheapkeep',
    })
    const tee = jane.line_items[0]!
    // Verify says before any choice that the tee would be kept if refunded: the exchange step tells the shopper.
    expect(tee.keep_if_refunded).toBe(true)
    const quoted = (
      await quote(
        {
          items: [
            { line_item_id: tee.id, quantity: 1, reason_id: 'too_small', exchange_variant_id: 'classic-tee-l' },
            { line_item_id: 'li-1001-002', quantity: 1, reason_id: 'changed_mind' },
          ],
        },
        jane.token,
      )
    ).json<ReturnOrder>()
    expect(quoted.items.map((item) => [item.line_item_id, item.keep])).toEqual([
      [tee.id, false],
      ['li-1001-002', true],
    ])
    // The tee's parcel goes back, but the fee is for refunded items sent back: the mug is kept.
    expect(amount(quoted.breakdown.return_fee)).toBe('0.00')
  })

  test.each([
    ['equal to the price paid (9.90) sends the socks back', '9.90', false],
    ['one cent above the price paid keeps them', '9.91', true],
  ])('boundary: a threshold %s', async (_name, threshold, kept) => {
    const file = demoFile()
    file.shop = `edge${threshold.replace('.', '')}`
    file.config.portal_id = `portal-${file.shop}`
    file.settings.keep_item_below = threshold
    expect(
      (await api.app.inject({ method: 'POST', url: '/admin/shops', headers: bearer(ADMIN_TOKEN), payload: file }))
        .statusCode,
    ).toBe(201)
    const shopper = await verified(api.app, '#1010', 'keep@example.com', {
      shop: file.shop,
      portal_id: file.config.portal_id,
    })
    const quoted = (await quote(socksOnly, shopper.token)).json<ReturnOrder>()
    expect(quoted.items[0]!.keep).toBe(kept)
    // What verify promised before the choice is what the quote does.
    expect(shopper.line_items.find((line) => line.id === SOCKS)!.keep_if_refunded ?? false).toBe(kept)
    expect(amount(quoted.breakdown.return_fee)).toBe(kept ? '0.00' : '3.95')
  })

  test('a shop without the setting keeps nothing', async () => {
    const file = demoFile()
    file.shop = 'nokeep'
    file.config.portal_id = 'portal-nokeep'
    delete file.settings.keep_item_below
    expect(
      (await api.app.inject({ method: 'POST', url: '/admin/shops', headers: bearer(ADMIN_TOKEN), payload: file }))
        .statusCode,
    ).toBe(201)
    const shopper = await verified(api.app, '#1010', 'keep@example.com', { shop: 'nokeep', portal_id: 'portal-nokeep' })
    expect(shopper.line_items.map((line) => line.keep_if_refunded)).toEqual(shopper.line_items.map(() => undefined))
    const quoted = (await quote(socksOnly, shopper.token)).json<ReturnOrder>()
    expect(quoted.items[0]!.keep).toBe(false)
    expect(amount(quoted.breakdown.return_fee)).toBe('3.95')
  })

  test('every item kept: the submitted return says so; its instructions have no address, label or QR code', async () => {
    const created = await submit(socksOnly)
    expect(created.items[0]!.keep).toBe(true)
    const response = await instructionsOf(created.id!)
    expect(response.statusCode).toBe(200)
    const instructions = response.json<NothingToSendInstructions & Partial<ReturnInstructions>>()
    expect(instructions).toMatchObject({ return_id: created.id, return_name: '#1010-R1', nothing_to_send: true })
    expect(instructions.items).toEqual([
      { line_item_id: SOCKS, title: 'Cotton Socks', variant_title: '', quantity: 2, keep: true },
    ])
    expect(instructions.steps).toEqual([
      'Keep the items: there is nothing to pack, print or drop off. Your refund is on its way.',
    ])
    expect(instructions.label_url).toBeUndefined()
    expect(instructions.qr_svg).toBeUndefined()
    expect(instructions.address).toBeUndefined()
    const inSpanish = (await instructionsOf(created.id!, 'es')).json<NothingToSendInstructions>()
    expect(inSpanish.steps[0]).toMatch(/^Quédese con los artículos/)
    // Even a correctly signed label link finds no label: nothing goes in a parcel.
    const expires = Math.floor(NOW.getTime() / 1000) + 3600
    const label = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${created.id}/label.pdf?expires=${expires}&signature=${signLabel(Buffer.from('test-secret'), created.id!, expires)}`,
    })
    expect(label.statusCode).toBe(404)
  })

  test('mixed: the instructions list both, say to pack only what goes back, and the label lists only it', async () => {
    const created = await submit(mixed)
    const instructions = (await instructionsOf(created.id!)).json<ReturnInstructions>()
    expect('nothing_to_send' in instructions).toBe(false)
    expect(instructions.items?.map((item) => [item.title, item.keep])).toEqual([
      ['Cotton Socks', true],
      ['Wool Beanie', false],
    ])
    expect(instructions.steps[0]).toMatch(/^Pack only the items to send back/)
    expect((await instructionsOf(created.id!, 'de')).json<ReturnInstructions>().steps[0]).toMatch(
      /^Verpacken Sie nur die Artikel/,
    )
    expect(instructions.address.city).toBe('Hamburg')
    const label = await api.app.inject({ method: 'GET', url: instructions.label_url })
    expect(label.statusCode).toBe(200)
    const text = await drawnText(label.rawPayload)
    expect(text).toContain('Wool Beanie')
    expect(text).not.toContain('Cotton Socks')
  })

  test('none kept: the instructions are as before, with every item in the parcel', async () => {
    const created = await submit({ items: [{ line_item_id: BEANIE, quantity: 1, reason_id: 'changed_mind' }] })
    const instructions = (await instructionsOf(created.id!)).json<ReturnInstructions>()
    expect(instructions.steps[0]).toMatch(/^Pack the items in a parcel/)
    expect(instructions.items?.map((item) => item.keep)).toEqual([false])
    expect(instructions.label_url).toContain('/label.pdf?expires=')
  })
})
