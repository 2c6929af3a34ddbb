import type { ReturnReason } from '../../../contract/api'
import type { ShopPolicy } from '../../../contract/policy'
import {
  answerBy,
  limitSince,
  lineRule,
  refusedByRule,
  reviewFlags,
  reviewOverMinor,
  shopperRefused,
  type ReviewInput,
} from './policy'
import type { LineItem, Shop } from './shop'

const SWIM = { tag: 'swimwear', label: 'Swimwear' }
const SALE = { tag: 'sale', label: 'Sale items' }
const POLICY: ShopPolicy = {
  final_sale: [SWIM, { tag: 'sale', label: 'Final sale' }],
  windows: [
    { ...SALE, days: 14 },
    { tag: 'outerwear', days: 60, label: 'Coats and jackets' },
    { tag: 'sale', days: 7, label: 'never reached' },
  ],
}

describe('lineRule: what a product’s tags make of its lines', () => {
  test.each<[string, ShopPolicy, string[], ReturnType<typeof lineRule>]>([
    ['no policy: the shop’s window', {}, ['swimwear'], { finalSale: null, days: 30, window: null }],
    ['no tags: the shop’s window', POLICY, [], { finalSale: null, days: 30, window: null }],
    ['a tag no rule names: the shop’s window', POLICY, ['tops'], { finalSale: null, days: 30, window: null }],
    ['a final-sale tag', POLICY, ['swimwear'], { finalSale: 'Swimwear', days: 30, window: null }],
    ['a longer window by tag', POLICY, ['outerwear'], { finalSale: null, days: 60, window: 'Coats and jackets' }],
    [
      'the first rule of each list whose tag it has, whatever the order of its tags',
      { final_sale: [SWIM], windows: POLICY.windows! },
      ['outerwear', 'sale'],
      { finalSale: null, days: 14, window: 'Sale items' },
    ],
    [
      'a final-sale rule, with the window its tags give',
      POLICY,
      ['sale', 'outerwear'],
      { finalSale: 'Final sale', days: 14, window: 'Sale items' },
    ],
    [
      'a window of 0 days',
      { windows: [{ tag: 'gift', days: 0, label: 'Gifts' }] },
      ['gift'],
      { finalSale: null, days: 0, window: 'Gifts' },
    ],
  ])('%s', (_name, policy, tags, expected) => {
    expect(lineRule(policy, 30, tags)).toEqual(expected)
  })
})

describe('refusedByRule: what a crafted request cannot return', () => {
  const FULFILLED = new Date('2026-11-01T12:00:00.000Z')
  const DAY_MS = 86_400_000
  const shop = {
    currency_code: 'EUR',
    settings: { return_window_days: 30 },
    policy: { final_sale: [SWIM], windows: POLICY.windows },
    catalogue: [
      { id: 'suit', title: 'Swimsuit', tags: ['swimwear'], variants: [{ id: 'suit-m', options: [], price: '30.00' }] },
      { id: 'dress', title: 'Dress', tags: ['sale'], variants: [{ id: 'dress-m', options: [], price: '30.00' }] },
      { id: 'tee', title: 'Tee', variants: [{ id: 'tee-m', options: [], price: '30.00' }] },
    ],
  } as unknown as Shop
  const line = (variant_id: string | null): LineItem => ({
    id: 'l',
    variant_id,
    quantity: 1,
    price: 3000,
    tax_rate: '0',
  })
  const at = (days: number, ms = 0) => new Date(FULFILLED.getTime() + days * DAY_MS + ms)
  test.each<[string, string | null, Date | undefined, boolean]>([
    ['a final-sale tag, at any time', 'suit-m', at(0), true],
    ['a final-sale tag, without a time', 'suit-m', undefined, true],
    ['a window rule, on its last moment', 'dress-m', at(14), false],
    ['a window rule, just after its end', 'dress-m', at(14, 1), true],
    ['a window rule, without a time', 'dress-m', undefined, false],
    ['the shop’s own window, long after its end (verify’s to judge)', 'tee-m', at(90), false],
    ['a line without a catalogue variant', null, at(90), false],
  ])('%s: %s', (_name, variant, now, expected) => {
    expect(refusedByRule(shop, line(variant), FULFILLED, now)).toBe(expected)
  })
})

describe('shopperRefused: blocked shoppers and the limit', () => {
  const blocked: ShopPolicy = { blocked: { emails: [' Abuser@Example.com'], order_names: ['#1001'] } }
  const limited: ShopPolicy = { limit: { returns: 3, days: 30 } }
  test.each<[string, ShopPolicy, { email: string; orderName: string; recentReturns: number }, boolean]>([
    ['no policy, many returns', {}, { email: 'jane@example.com', orderName: '#1', recentReturns: 99 }, false],
    [
      'a blocked e-mail, as verify compares e-mails',
      blocked,
      { email: 'abuser@example.com ', orderName: '#7', recentReturns: 0 },
      true,
    ],
    [
      'a blocked order, named without "#"',
      blocked,
      { email: 'jane@example.com', orderName: '1001', recentReturns: 0 },
      true,
    ],
    [
      'a blocked order, named in another case and with spaces',
      { blocked: { order_names: ['ac1001'] } },
      { email: 'j@example.com', orderName: ' #AC1001 ', recentReturns: 0 },
      true,
    ],
    ['another e-mail and order', blocked, { email: 'jane@example.com', orderName: '#10010', recentReturns: 0 }, false],
    ['under the limit', limited, { email: 'jane@example.com', orderName: '#1', recentReturns: 2 }, false],
    ['at the limit', limited, { email: 'jane@example.com', orderName: '#1', recentReturns: 3 }, true],
    ['over the limit', limited, { email: 'jane@example.com', orderName: '#1', recentReturns: 4 }, true],
  ])('%s', (_name, policy, shopper, expected) => {
    expect(shopperRefused(policy, shopper)).toBe(expected)
  })

  test('the limit’s period is its days before now; no limit, no period', () => {
    const now = new Date('2026-11-20T12:00:00.000Z')
    expect(limitSince(limited, now)).toEqual(new Date('2026-10-21T12:00:00.000Z'))
    expect(limitSince({}, now)).toBeNull()
  })
})

describe('reviewFlags: the review rules a return matches, in words for staff', () => {
  const reasons: ReturnReason[] = [
    { id: 'damaged', label: 'Damaged', comment_required: false, photos_required: 1 },
    {
      id: 'not_as_described',
      label: 'Not as described',
      comment_required: false,
      children: [
        { id: 'wrong_item', label: 'Wrong item sent', comment_required: false },
        { id: 'colour', label: 'Colour differs', comment_required: false },
      ],
    },
    { id: 'changed_mind', label: 'Changed my mind', comment_required: false },
  ]
  const input = (overrides: Partial<ReviewInput> = {}): ReviewInput => ({
    currency: 'EUR',
    itemsValueMinor: 5000,
    items: [{ reason_id: 'changed_mind', photos: 0 }],
    reasons,
    shopperReturns: 1,
    ...overrides,
  })
  const review = (rules: NonNullable<ShopPolicy['review']>): ShopPolicy => ({ review: rules })
  test.each<[string, ShopPolicy, ReviewInput, { rule: string; message: string }[]]>([
    ['no review rules, anything', {}, input({ itemsValueMinor: 10_000_000, shopperReturns: 50 }), []],
    ['worth exactly the amount', review({ over_amount: '200.00' }), input({ itemsValueMinor: 20000 }), []],
    [
      'worth more than the amount',
      review({ over_amount: '200.00' }),
      input({ itemsValueMinor: 25000 }),
      [{ rule: 'over_amount', message: 'Worth €250.00, over the €200.00 that needs review' }],
    ],
    [
      'worth more, in a currency without minor units',
      review({ over_amount: '20000' }),
      input({ currency: 'JPY', itemsValueMinor: 25000 }),
      [{ rule: 'over_amount', message: 'Worth ¥25,000, over the ¥20,000 that needs review' }],
    ],
    [
      'photos for a listed reason',
      review({ photo_reasons: ['damaged'] }),
      input({ items: [{ reason_id: 'damaged', photos: 2 }] }),
      [{ rule: 'photos', message: 'Photos for “Damaged”' }],
    ],
    [
      'photos for sub-reasons of a listed reason, each named once',
      review({ photo_reasons: ['not_as_described'] }),
      input({
        items: [
          { reason_id: 'wrong_item', photos: 1 },
          { reason_id: 'colour', photos: 1 },
          { reason_id: 'wrong_item', photos: 3 },
        ],
      }),
      [{ rule: 'photos', message: 'Photos for “Wrong item sent”, “Colour differs”' }],
    ],
    [
      'a listed reason without photos',
      review({ photo_reasons: ['damaged'] }),
      input({ items: [{ reason_id: 'damaged', photos: 0 }] }),
      [],
    ],
    [
      'photos for a reason not listed',
      review({ photo_reasons: ['damaged'] }),
      input({ items: [{ reason_id: 'changed_mind', photos: 1 }] }),
      [],
    ],
    ['as many returns as allowed', review({ frequent: { returns: 3, days: 30 } }), input({ shopperReturns: 3 }), []],
    [
      'more returns than allowed',
      review({ frequent: { returns: 3, days: 30 } }),
      input({ shopperReturns: 5 }),
      [{ rule: 'frequent', message: '5 returns in 30 days (more than 3)' }],
    ],
    [
      'more returns than allowed in one day',
      review({ frequent: { returns: 1, days: 1 } }),
      input({ shopperReturns: 2 }),
      [{ rule: 'frequent', message: '2 returns in 1 day (more than 1)' }],
    ],
    [
      'every rule at once, each its own flag',
      review({ over_amount: '10.00', photo_reasons: ['damaged'], frequent: { returns: 1, days: 7 } }),
      input({ itemsValueMinor: 1001, items: [{ reason_id: 'damaged', photos: 1 }], shopperReturns: 2 }),
      [
        { rule: 'over_amount', message: 'Worth €10.01, over the €10.00 that needs review' },
        { rule: 'photos', message: 'Photos for “Damaged”' },
        { rule: 'frequent', message: '2 returns in 7 days (more than 1)' },
      ],
    ],
  ])('%s', (_name, policy, given, expected) => {
    // The policy as the shop is read with it: its review amount in the shop's currency.
    const shop = { policy, review_over_minor: reviewOverMinor(policy, given.currency) }
    expect(reviewFlags(shop, given)).toEqual(expected)
  })
})

describe('answerBy: the day the shopper is told to expect an answer by', () => {
  const FRIDAY = new Date('2026-11-20T12:00:00.000Z')
  test.each<[string, ShopPolicy, Date, string]>([
    ['2 business days when the policy says none', {}, FRIDAY, '2026-11-24'],
    ['2 business days without review rules', { review: { over_amount: '100.00' } }, FRIDAY, '2026-11-24'],
    ['1 business day after a Friday is the Monday', { review: { answer_within_days: 1 } }, FRIDAY, '2026-11-23'],
    [
      '5 business days from a Saturday',
      { review: { answer_within_days: 5 } },
      new Date('2026-11-21T08:00:00.000Z'),
      '2026-11-27',
    ],
    [
      'late on a Wednesday, UTC',
      { review: { answer_within_days: 2 } },
      new Date('2026-11-18T23:30:00.000Z'),
      '2026-11-20',
    ],
  ])('%s', (_name, policy, createdAt, expected) => {
    expect(answerBy(policy, createdAt)).toBe(expected)
  })
})
