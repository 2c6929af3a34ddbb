import { buildFlow, buildLineItem, buildOrder } from '../../testing/builders'
import { initialState } from './returnFlowSlice'
import { restoreReturnFlow } from './restore'

const order = buildOrder({ line_items: [buildLineItem({ id: 'tee', quantity: 2, returnable_quantity: 2 })] })

test('a valid persisted state is kept', () => {
  const state = buildFlow({
    launch: { lang: 'de', testMode: true, configOverride: 'abc' },
    order,
    items: [{ lineItemId: 'tee', quantity: 2, reason: { id: 'small', comment: 'tight' }, exchange: { kind: 'exchange', variantId: 'tee-l' } }],
    upsell: { kind: 'declined' },
    refundMethod: 'store_credit',
    idempotencyKey: 'key-1',
  })
  expect(restoreReturnFlow(state)).toEqual(state)
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
  expect(restored).toMatchObject({ items: [{ lineItemId: 'tee', quantity: 1, reason: null, exchange: null }], upsell: null, refundMethod: null, quote: null })
})
