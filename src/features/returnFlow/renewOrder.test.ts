import { makeStore } from '../../app/store'
import { buildFlow, buildLineItem, buildOrder } from '../../testing/builders'
import { renewOrder } from './renewOrder'
import type { ChosenItem } from './returnFlowSlice'

const tee = buildLineItem({ id: 'tee', variant_id: 'v-m', quantity: 2, returnable_quantity: 2 })
const mug = buildLineItem({ id: 'mug', variant_id: null })
const order = buildOrder({
  line_items: [tee, mug],
  exchange_data: { options: { 'v-m': ['v-m', 'v-l'] }, upsell_enabled: true, variants: {} },
})
const items: ChosenItem[] = [
  {
    lineItemId: 'tee',
    quantity: 2,
    reason: { id: 'too-small', comment: '' },
    exchange: { kind: 'exchange', variantId: 'v-l' },
  },
  {
    lineItemId: 'mug',
    quantity: 1,
    reason: { id: 'too-small', comment: 'Chipped', photoIds: ['p'.repeat(22)] },
    exchange: null,
  },
]
const flow = buildFlow({
  order,
  items,
  upsell: { kind: 'accepted', variantId: 'socks' },
  refundMethod: 'store_credit',
  idempotencyKey: 'key-0001-abcdef',
  expired: true,
})

describe('renewOrder', () => {
  test('the same order with a new token keeps every choice and the submit key, and the session is no longer expired', () => {
    const store = makeStore({ returnFlow: flow })
    store.dispatch(renewOrder({ ...order, token: 'fresh' }))
    const after = store.getState().returnFlow
    expect(after.order?.token).toBe('fresh')
    expect(after).toMatchObject({
      items,
      upsell: flow.upsell,
      refundMethod: 'store_credit',
      idempotencyKey: 'key-0001-abcdef',
    })
    expect(after.expired).toBeUndefined()
  })

  test('units no longer returnable are dropped, and the changed choices are another return: no key', () => {
    const store = makeStore({ returnFlow: flow })
    store.dispatch(
      renewOrder({
        ...order,
        line_items: [{ ...tee, returnable_quantity: 0, ineligible_reason: 'already_returned' }, mug],
      }),
    )
    const after = store.getState().returnFlow
    expect(after.items).toEqual([items[1]])
    expect(after.idempotencyKey).toBeNull()
    expect(after.refundMethod).toBe('store_credit')
  })
})
