import type { ReturnStatus } from '../../../contract/api'
import { itemStates } from '../../../contract/constants'
import { moneyBag } from '../../../contract/money'
import type { EmailKind } from '../domain/events'
import type { EmailPayload } from '../storage/outbox'
import type { ShopRecord } from '../storage/shops'
import { emailLanguage, formatDay, renderEmail } from './renderEmail'

/** The e-mails' words as the shopper reads them (docs/events.md): dates, variants, the fee, the new item. */

const eur = (amount: string) => ({ amount, currency_code: 'EUR' })
const SHOP: ShopRecord = {
  id: 'north',
  currency_code: 'EUR',
  settings: {
    return_window_days: 30,
    return_fee: 395,
    prices_include_tax: true,
    upsell_enabled: true,
    keep_item_below: null,
  },
  config: { portal_id: 'portal-north', document_title_text: 'North Store' },
  config_variants: { fr: { need_help_message: 'Des questions ?' }, de: {} },
  return_reasons: [{ id: 'damaged', label: 'Damaged', comment_required: false }],
  return_reason_variants: {},
  return_address: { name: 'Returns', line1: 'Street 1', city: 'Town', postal_code: '1', country_code: 'DE' },
  catalogue: [
    {
      id: 'sneakers',
      title: 'Court Sneakers',
      variants: ['43', '44'].map((size) => ({
        id: `sneakers-${size}`,
        options: [{ name: 'Size', value: size }],
        price: '89.00',
      })),
    },
    {
      id: 'socks',
      title: 'Cotton Socks',
      variants: [{ id: 'socks-blue', options: [{ name: 'Colour', value: 'Blue' }], price: '6.00' }],
    },
  ],
  email: null,
  policy: {},
  review_over_minor: null,
}

const status = (overrides: Partial<ReturnStatus> = {}): ReturnStatus => ({
  return_id: 'r1',
  return_name: '#1001-R1',
  created_at: '2026-11-17T12:00:00.000Z',
  items: [
    {
      line_item_id: 'li-sneakers',
      title: 'Court Sneakers',
      variant_title: '43',
      quantity: 1,
      image_src: null,
      exchange_variant_title: null,
      keep: false,
      states: [...itemStates(false)],
      state: 'requested',
      history: [],
    },
  ],
  refund: { method: 'original_payment', amount: eur('89.00'), timing: null, expected: null },
  label: { label_url: '/label.pdf', qr_svg: '<svg/>', qr_code_value: 'RB-7K2M9Q' },
  address: { name: 'Returns', line1: 'Street 1', city: 'Town', postal_code: '1', country_code: 'DE', lines: [] },
  ...overrides,
})

function render(kind: EmailKind, shown: ReturnStatus, options: { language?: string; waived?: boolean } = {}) {
  const payload: EmailPayload = {
    kind,
    line_item_ids: shown.items.map((item) => item.line_item_id),
    language: options.language ?? 'en',
    origin: 'http://north.localhost:8080',
    order_name: '#1001',
    status: shown,
    deal: {
      at: shown.created_at,
      variants: { 'li-sneakers': { variant_id: 'sneakers-43', exchange_variant_id: null } },
      breakdown: {
        items_subtotal: moneyBag(8900, 'EUR'),
        tax: moneyBag(0, 'EUR'),
        return_fee: moneyBag(options.waived ? 0 : 395, 'EUR'),
        ...(options.waived ? { return_fee_waived: true } : {}),
        bonus: moneyBag(0, 'EUR'),
        upsell: moneyBag(0, 'EUR'),
        total: moneyBag(8900, 'EUR'),
      },
    },
  }
  return renderEmail(SHOP, 'jane@example.com', payload, Buffer.from('test-secret'))
}

test.each([
  ['fr', '2026-12-01', '1er décembre 2026'],
  ['fr', '2026-12-02', '2 décembre 2026'],
  ['fr', '2026-12-11', '11 décembre 2026'],
  ['en', '2026-12-01', 'December 1, 2026'],
  ['de', '2026-12-01', '1. Dezember 2026'],
  ['es', '2026-12-01', '1 de diciembre de 2026'],
])('formatDay(%s, %s) is %s', (lang, day, words) => {
  expect(formatDay(lang, day)).toBe(words)
})

test('a French e-mail writes the first of the month as an ordinal', async () => {
  // Made on 17 November: dropped off within 14 days, by 1 December.
  const { text } = await render('created', status(), { language: 'fr' })
  expect(text).toContain('le 1er décembre 2026')
  expect(text).not.toMatch(/\b1 décembre/)
})

test('a variant is named by its options: "Size 43", never a bare "43"', async () => {
  const { text } = await render('created', status())
  expect(text).toContain('Court Sneakers · Size 43')
  expect(text).not.toMatch(/· 43\b/)
})

test('a size is named in the e-mail’s language: "Größe 43"', async () => {
  const { text } = await render('created', status(), { language: 'de' })
  expect(text).toContain('Court Sneakers · Größe 43')
})

test('a waived fee is said to be waived, and no fee is taken', async () => {
  const waived = await render('created', status(), { waived: true })
  expect(waived.text).toContain('No return fee: the shop waives it for your return reason.')
  expect(waived.text).not.toContain('A return fee of')
  const taken = await render('created', status())
  expect(taken.text).toContain('A return fee of €3.95 is taken from it.')
})

test('the new item bought with the credit ships: one line, with its options', async () => {
  const newItem = {
    variant_id: 'socks-blue',
    product_title: 'Cotton Socks',
    title: 'Blue',
    price: moneyBag(600, 'EUR'),
    image_src: null,
    state: 'to_be_sent' as const,
  }
  const { text } = await render('created', status({ new_item: newItem }))
  expect(text.match(/ships/g)).toEqual(['ships'])
  expect(text).toContain('Cotton Socks · Colour Blue ships once your return is complete.')
})

test('"We have your return" is never said before the parcel is in', async () => {
  for (const kind of ['created', 'approved'] as const) {
    const { html, subject } = await render(kind, status())
    expect(html).not.toContain('We have your return')
    expect(subject).not.toContain('We have your return')
  }
})

test.each([
  ['de', 'de'],
  ['fr', 'fr'],
  // The shop has no Spanish texts: English, whole.
  ['es', 'en'],
  ['pt', 'en'],
  [null, 'en'],
])('emailLanguage(%s) for a shop with French and German texts is %s', (asked, lang) => {
  expect(emailLanguage(asked, SHOP)).toBe(lang)
})
