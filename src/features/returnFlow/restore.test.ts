import type { RefundTimings, ReturnOrder } from '../../../contract/api'
import { REASON_DEPTH } from '../../../contract/reasonTree'
import { buildFlow, buildLineItem, buildOrder, buildQuote, buildSubmittedReturn, money } from '../../testing/builders'
import { completeFlow } from '../../testing/persisted'
import { drop, set } from '../../testing/spoil'
import { initialState, type ReturnFlowState } from './returnFlowSlice'
import { restoreReturnFlow } from './restore'

const order = buildOrder({ line_items: [buildLineItem({ id: 'tee', quantity: 2, returnable_quantity: 2 })] })

test('a valid persisted state is kept', () => {
  const state = buildFlow({
    launch: { lang: 'de', testMode: true, configOverride: 'abc' },
    order,
    items: [
      { lineItemId: 'tee', quantity: 2, reason: { id: 'small', comment: 'tight' }, exchange: { kind: 'refund' } },
    ],
    upsell: { kind: 'declined' },
    refundMethod: 'store_credit',
    idempotencyKey: 'key-0001-abcdef',
  })
  expect(restoreReturnFlow(state)).toEqual(state)
})

test('a complete flow (exchange, quote, submitted return) is kept', () => {
  const state = completeFlow()
  expect(restoreReturnFlow(JSON.parse(JSON.stringify(state)))).toEqual(state)
})

test.each([
  ['undefined', undefined],
  ['a string', 'garbage'],
  ['an array', [1, 2]],
  ['a foreign shape', { cart: [], user: { email: 'x@y.z' } }],
])('%s becomes the initial state', (_name, value) => {
  expect(restoreReturnFlow(value)).toEqual(initialState)
})

test('a broken order is dropped and the launch kept', () => {
  expect(restoreReturnFlow({ launch: { lang: 'de', testMode: 'yes' }, order: { order_name: 1 } })).toEqual({
    ...initialState,
    launch: { lang: 'de', testMode: false, configOverride: null },
  })
})

test.each([
  ['an item of another order', { lineItemId: 'not-in-order', quantity: 1, reason: null, exchange: null }],
  ['more units than can be returned', { lineItemId: 'tee', quantity: 3, reason: null, exchange: null }],
  ['a fractional quantity', { lineItemId: 'tee', quantity: 1.5, reason: null, exchange: null }],
  ['not an object', 'tee'],
])('choices with %s are dropped, the order kept', (_name, item) => {
  const restored = restoreReturnFlow({ ...buildFlow({ order }), items: [item], refundMethod: 'store_credit' })
  expect(restored).toEqual({ ...initialState, order })
})

test('unknown values of a choice fall back to "not chosen"', () => {
  const restored = restoreReturnFlow({
    ...buildFlow({ order }),
    items: [{ lineItemId: 'tee', quantity: 1, reason: { id: 5 }, exchange: { kind: 'teleport' } }],
    upsell: { kind: 'maybe' },
    refundMethod: 'cash',
    quote: { refund_value: 'lots' },
  })
  expect(restored).toMatchObject({
    items: [{ lineItemId: 'tee', quantity: 1, reason: null, exchange: null }],
    upsell: null,
    refundMethod: null,
    quote: null,
  })
})

/** completeFlow() as sessionStorage holds it, safe to break. */
const stored = () => JSON.parse(JSON.stringify(completeFlow())) as ReturnFlowState

test.each<[string, (flow: ReturnFlowState) => void]>([
  ['a line without a price', (flow) => drop(flow, ['order', 'line_items', 0, 'price'])],
  [
    'a line with a returnable quantity above its quantity',
    (flow) => set(flow, ['order', 'line_items', 1, 'returnable_quantity'], 5),
  ],
  ['two lines with one id', (flow) => set(flow, ['order', 'line_items', 1, 'id'], 'tee')],
  [
    'an exchange option naming a variant it does not describe',
    (flow) => flow.order!.exchange_data!.options['tee-m']!.push('tee-xxl'),
  ],
  ['a variant without a price', (flow) => drop(flow, ['order', 'exchange_data', 'variants', 'tee-s', 'price'])],
  ['a reason without a label', (flow) => drop(flow, ['order', 'return_reasons', 0, 'label'])],
  ['no token', (flow) => drop(flow, ['order', 'token'])],
])('an order with %s is dropped: the flow starts again', (_name, spoil) => {
  const flow = stored()
  spoil(flow)
  expect(restoreReturnFlow(flow)).toEqual({ ...initialState, launch: completeFlow().launch })
})

test.each<[string, (flow: ReturnFlowState) => void, Partial<ReturnFlowState>]>([
  [
    'an exchange for a variant the item is not offered',
    (flow) => set(flow, ['items', 0, 'exchange', 'variantId'], 'mug-default'),
    { items: [{ ...completeFlow().items[0]!, exchange: null }, completeFlow().items[1]!] },
  ],
  ['one line chosen twice', (flow) => flow.items.push(flow.items[0]!), { items: [], quote: null, submitted: null }],
  ['a quote without its breakdown’s total', (flow) => drop(flow, ['quote', 'breakdown', 'total']), { quote: null }],
  ['a submitted return without an id', (flow) => set(flow, ['submitted', 'id'], null), { submitted: null }],
  ['a submitted return that is a quote', (flow) => set(flow, ['submitted', 'status'], 'quote'), { submitted: null }],
  [
    'a language that is no language tag',
    (flow) => set(flow, ['launch', 'lang'], 'de"><script>'),
    { launch: { ...completeFlow().launch, lang: null } },
  ],
  [
    'an idempotency key the server would refuse',
    (flow) => set(flow, ['idempotencyKey'], 'key\nX-Evil: 1'),
    { idempotencyKey: null },
  ],
])('%s is dropped, the rest kept', (_name, spoil, expected) => {
  const flow = stored()
  spoil(flow)
  expect(restoreReturnFlow(flow)).toMatchObject(expected)
})

describe('sub-reasons and photos', () => {
  const photo = (n: number) => `photo-${String(n).padStart(16, '0')}`
  const tree = [
    { id: 'damaged', label: 'Arrived damaged', comment_required: true, photos_required: 1 },
    {
      id: 'not_as_described',
      label: 'Not as described',
      comment_required: false,
      children: [{ id: 'wrong_item', label: 'Wrong item sent', comment_required: false, photos_required: 2 }],
    },
  ]
  const withReason = (reason: unknown, reasons: unknown = tree) => ({
    ...buildFlow({ order: { ...order, return_reasons: reasons as typeof tree } }),
    items: [{ lineItemId: 'tee', quantity: 1, reason, exchange: null }],
  })

  test('a tree of reasons and an item’s photo ids survive a reload', () => {
    const state = withReason({ id: 'wrong_item', comment: '', photoIds: [photo(1), photo(2)] })
    expect(restoreReturnFlow(JSON.parse(JSON.stringify(state)))).toEqual(state)
  })

  test.each([
    ['not a list', 'photo-0000000000000001'],
    ['more than 3', [photo(1), photo(2), photo(3), photo(4)]],
    ['one id twice', [photo(1), photo(1)]],
    ['an id not of the upload’s shape', ['../../etc/passwd']],
    ['image bytes instead of an id', ['data:image/png;base64,iVBORw0KGgo=']],
    ['an empty list', []],
  ])('photo ids that are %s are dropped, the reason kept', (_name, photoIds) => {
    const restored = restoreReturnFlow(withReason({ id: 'damaged', comment: 'Chipped', photoIds }))
    expect(restored.items[0]!.reason).toStrictEqual({ id: 'damaged', comment: 'Chipped' })
  })

  test.each([
    ['photos asked as a string', [{ ...tree[0], photos_required: '1' }]],
    ['more photos asked than an item takes', [{ ...tree[0], photos_required: 4 }]],
    ['sub-reasons that are not a list', [{ ...tree[1], children: { id: 'x' } }]],
    ['a sub-reason without a label', [{ ...tree[1], children: [{ id: 'x', comment_required: false }] }]],
    [
      'sub-reasons nested deeper than the API gives them',
      [
        {
          ...tree[1],
          children: [
            {
              id: 'a',
              label: 'A',
              comment_required: false,
              children: [
                {
                  id: 'b',
                  label: 'B',
                  comment_required: false,
                  children: [{ id: 'c', label: 'C', comment_required: false }],
                },
              ],
            },
          ],
        },
      ],
    ],
  ])('an order whose reasons have %s is dropped', (_name, reasons) => {
    expect(restoreReturnFlow(withReason(null, reasons)).order).toBeNull()
  })

  /** A tree of reasons `depth` levels deep: each level one reason, the last a leaf. */
  const nested = (depth: number): unknown => ({
    id: `level-${depth}`,
    label: `Level ${depth}`,
    comment_required: false,
    ...(depth > 1 ? { children: [nested(depth - 1)] } : {}),
  })

  test('reasons as deep as the API gives them (REASON_DEPTH) are kept, one level more is not', () => {
    const deepest = withReason(null, [nested(REASON_DEPTH)])
    expect(restoreReturnFlow(deepest)).toEqual(deepest)
    expect(restoreReturnFlow(withReason(null, [nested(REASON_DEPTH + 1)])).order).toBeNull()
  })
})

describe('refund timing on the quote and the submitted return', () => {
  const timings = {
    original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
    store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
  }
  const withTimings = () => {
    const flow = stored()
    set(flow, ['quote', 'refund_timing'], timings)
    set(flow, ['submitted', 'refund_timing'], timings)
    return flow
  }

  test('a well-formed timing is kept', () => {
    const restored = restoreReturnFlow(withTimings())
    expect(restored.quote?.refund_timing).toEqual(timings)
    expect(restored.submitted?.refund_timing).toEqual(timings)
  })

  test.each<[string, (timing: RefundTimings) => void]>([
    ['an unknown method', (t) => set(t, ['cash'], t.store_credit)],
    ['to before from', (t) => set(t, ['original_payment', 'to_days'], 1)],
    ['negative days', (t) => set(t, ['store_credit', 'from_days'], -1)],
    ['days as text', (t) => set(t, ['store_credit', 'to_days'], '0')],
    ['an unknown anchor', (t) => set(t, ['original_payment', 'after'], 'shipping')],
    ['a list instead of an object', (t) => Object.assign(t, { store_credit: [] })],
  ])('a timing with %s drops the quote and the return that carry it', (_name, spoil) => {
    const flow = withTimings()
    spoil(flow.quote!.refund_timing!)
    spoil(flow.submitted!.refund_timing!)
    expect(restoreReturnFlow(flow)).toMatchObject({ quote: null, submitted: null, order: completeFlow().order })
  })
})

describe('fit markers and kept items', () => {
  const order = buildOrder({
    line_items: [buildLineItem({ id: 'socks' })],
    return_reasons: [
      { id: 'too_small', label: 'Too small', comment_required: false, fit: 'too_small' },
      { id: 'other', label: 'Other', comment_required: false },
    ],
  })
  const item = {
    line_item_id: 'socks',
    title: 'Cotton Socks',
    variant_title: null,
    quantity: 1,
    reason_id: 'other',
    reason_label: 'Other',
    comment: null,
    exchange_variant_id: null,
    exchange_variant_title: null,
  }
  const keptQuote = (keep: unknown, kept: unknown = money('9.90')) =>
    ({
      ...buildQuote('9.90', { items: [{ ...item, keep } as ReturnOrder['items'][number]] }),
      breakdown: { ...buildQuote('9.90').breakdown, kept_items: kept },
    }) as ReturnOrder
  const persisted = (value: object) => JSON.parse(JSON.stringify(value)) as unknown

  test('reasons with fit markers, kept items and the kept part of a quote are restored as they were', () => {
    const state = buildFlow({
      order,
      quote: keptQuote(true),
      submitted: buildSubmittedReturn({ items: [{ ...item, keep: true }] }),
    })
    expect(restoreReturnFlow(persisted(state))).toEqual(state)
  })

  test('a quote stored before keep-item returns (no keep flag, no kept part) is still trusted', () => {
    const state = buildFlow({ order, quote: buildQuote('9.90', { items: [item] }) })
    expect(restoreReturnFlow(persisted(state)).quote).toEqual(state.quote)
  })

  test.each([
    [
      'a fit marker the portal does not know',
      { ...order, return_reasons: [{ id: 'too_small', label: 'Too small', comment_required: false, fit: 'tiny' }] },
    ],
    [
      'a fit marker of the wrong type',
      { ...order, return_reasons: [{ id: 'too_small', label: 'Too small', comment_required: false, fit: 1 }] },
    ],
  ])('an order with %s is not trusted', (_name, broken) => {
    expect(restoreReturnFlow(persisted(buildFlow({ order: broken as never }))).order).toBeNull()
  })

  test.each([
    ['a keep flag that is not true or false', keptQuote('yes')],
    ['a kept part that is not money', keptQuote(true, '9.90')],
  ])('a quote with %s is dropped (it is asked for again), the order kept', (_name, quote) => {
    const restored = restoreReturnFlow(persisted(buildFlow({ order, quote })))
    expect(restored.quote).toBeNull()
    expect(restored.order).toEqual(order)
  })
})

test('an exchange for a line whose variant id names a property of every object (__proto__) is dropped, the rest kept', () => {
  const flow = completeFlow()
  const [tee, mug] = flow.order!.line_items
  const spoiled = { ...flow, order: { ...flow.order!, line_items: [{ ...tee!, variant_id: '__proto__' }, mug!] } }
  expect(restoreReturnFlow(JSON.parse(JSON.stringify(spoiled)))).toEqual({
    ...spoiled,
    items: [{ ...flow.items[0]!, exchange: null }, flow.items[1]!],
  })
})
