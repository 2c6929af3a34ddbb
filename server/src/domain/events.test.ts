import type { ReturnItemState, ReturnReview, ReturnStatus } from '../../../contract/api'
import { itemStates } from '../../../contract/constants'
import { eventsOf, retryAt, RETRY_DELAYS_MS } from './events'

/** An item of a status: sent back unless `keep`, refunded unless it names an exchange. */
function item(id: string, state: ReturnItemState, options: { keep?: boolean; exchange?: string } = {}) {
  return {
    line_item_id: id,
    title: id,
    variant_title: null,
    quantity: 1,
    image_src: null,
    exchange_variant_title: options.exchange ?? null,
    keep: options.keep ?? false,
    states: [...itemStates(options.keep ?? false)],
    state,
    history: [],
  }
}

function status(
  items: ReturnStatus['items'],
  options: {
    refund?: 'none' | 'later' | 'at_once'
    newItem?: 'to_be_sent' | 'sent'
    review?: ReturnReview['state']
  } = {},
): ReturnStatus {
  const refund = options.refund ?? 'later'
  return {
    return_id: 'r1',
    return_name: '#1001-R1',
    created_at: '2026-11-20T12:00:00.000Z',
    items,
    refund:
      refund === 'none'
        ? null
        : {
            method: 'original_payment',
            amount: { amount: '25.00', currency_code: 'EUR' },
            timing: null,
            expected: null,
            ...(refund === 'at_once' ? { issued_at: '2026-11-20T12:00:00.000Z' } : {}),
          },
    label: null,
    address: { name: 'Returns', line1: 'Street 1', city: 'Town', postal_code: '1', country_code: 'DE', lines: [] },
    ...(options.newItem
      ? {
          new_item: {
            variant_id: 'v',
            product_title: 'Mug',
            title: '',
            price: {
              shop_money: { amount: '10.00', currency_code: 'EUR' },
              presentment_money: { amount: '10.00', currency_code: 'EUR' },
            },
            image_src: null,
            state: options.newItem,
          },
        }
      : {}),
    ...(options.review ? { review: reviewed(options.review) } : {}),
  }
}

/** A review as the status shows it (docs/lifecycle.md): waiting with its day, or decided. */
function reviewed(state: ReturnReview['state']): ReturnReview {
  if (state === 'pending') return { state, answer_by: '2026-11-24' }
  return {
    state,
    decided_at: '2026-11-21T09:00:00.000Z',
    ...(state === 'rejected' ? { reason: 'Worn and washed' } : {}),
  }
}

const kinds = (events: ReturnType<typeof eventsOf>) => ({
  webhooks: events.webhooks,
  emails: events.emails.map((email) => `${email.kind}:${email.line_item_ids.join(',')}`),
})

describe('eventsOf: what a change tells the shop and the shopper', () => {
  test.each<[string, ReturnStatus | null, ReturnStatus, { webhooks: string[]; emails: string[] }]>([
    [
      'a return submitted',
      null,
      status([item('a', 'requested'), item('b', 'requested')]),
      { webhooks: ['return.created'], emails: ['created:a,b'] },
    ],
    [
      'a return that keeps everything, refunded at once',
      null,
      status([item('a', 'refunded', { keep: true })], { refund: 'at_once' }),
      { webhooks: ['return.created', 'return.refunded'], emails: ['created:a', 'refunded:a'] },
    ],
    [
      'an item on its way: an update, nothing to tell the shopper',
      status([item('a', 'requested')]),
      status([item('a', 'in_transit')]),
      { webhooks: ['return.updated'], emails: [] },
    ],
    [
      'one of two items received: that one named',
      status([item('a', 'in_transit'), item('b', 'in_transit')]),
      status([item('a', 'received'), item('b', 'in_transit')]),
      { webhooks: ['return.updated'], emails: ['received:a'] },
    ],
    [
      'the last item refunded: refunded once, for the refunded items',
      status([item('a', 'refunded'), item('b', 'received')]),
      status([item('a', 'refunded'), item('b', 'refunded')]),
      { webhooks: ['return.updated', 'return.refunded'], emails: ['refunded:a,b'] },
    ],
    [
      'refunded before this change: not again',
      status([item('a', 'refunded', { keep: true }), item('b', 'received')], { refund: 'at_once' }),
      status([item('a', 'refunded', { keep: true }), item('b', 'refunded')], { refund: 'at_once' }),
      { webhooks: ['return.updated'], emails: [] },
    ],
    [
      'an exchange done: its new variant is sent, no refund without money back',
      status([item('a', 'received', { exchange: 'L' })], { refund: 'none' }),
      status([item('a', 'refunded', { exchange: 'L' })], { refund: 'none' }),
      { webhooks: ['return.updated'], emails: ['new_item_sent:a'] },
    ],
    [
      'the whole return done with a new item taken: refund and new item sent',
      status([item('a', 'received')], { newItem: 'to_be_sent' }),
      status([item('a', 'refunded')], { newItem: 'sent' }),
      { webhooks: ['return.updated', 'return.refunded'], emails: ['refunded:a', 'new_item_sent:'] },
    ],
    [
      'an item moved straight to refunded was never received: no received e-mail',
      status([item('a', 'requested'), item('b', 'requested')]),
      status([item('a', 'refunded'), item('b', 'requested')]),
      { webhooks: ['return.updated'], emails: [] },
    ],
  ])('%s', (_name, before, after, expected) => {
    expect(kinds(eventsOf(before, after))).toEqual(expected)
  })
})

describe('eventsOf: the review of a flagged return (docs/lifecycle.md)', () => {
  const two = () => [item('a', 'requested'), item('b', 'requested')]
  test.each<[string, ReturnStatus | null, ReturnStatus, { webhooks: string[]; emails: string[] }]>([
    [
      'a return submitted that waits for review: created, as every return',
      null,
      status(two(), { review: 'pending' }),
      { webhooks: ['return.created'], emails: ['created:a,b'] },
    ],
    [
      'approved: the approved e-mail about every item, an update for the shop',
      status(two(), { review: 'pending' }),
      status(two(), { review: 'approved' }),
      { webhooks: ['return.updated'], emails: ['approved:a,b'] },
    ],
    [
      'rejected: the rejected e-mail about every item, an update for the shop',
      status(two(), { review: 'pending' }),
      status(two(), { review: 'rejected' }),
      { webhooks: ['return.updated'], emails: ['rejected:a,b'] },
    ],
    [
      'still waiting: nothing to tell the shopper',
      status(two(), { review: 'pending' }),
      status(two(), { review: 'pending' }),
      { webhooks: ['return.updated'], emails: [] },
    ],
    [
      'approved earlier, an item on its way now: not approved again',
      status(two(), { review: 'approved' }),
      status([item('a', 'in_transit'), item('b', 'requested')], { review: 'approved' }),
      { webhooks: ['return.updated'], emails: [] },
    ],
    [
      'approved earlier, an item received now: the received e-mail only',
      status([item('a', 'in_transit')], { review: 'approved' }),
      status([item('a', 'received')], { review: 'approved' }),
      { webhooks: ['return.updated'], emails: ['received:a'] },
    ],
    [
      'rejected earlier, changed again: not rejected again',
      status(two(), { review: 'rejected' }),
      status(two(), { review: 'rejected' }),
      { webhooks: ['return.updated'], emails: [] },
    ],
    [
      'never flagged: a review seen only after the change is no decision',
      status(two()),
      status(two(), { review: 'approved' }),
      { webhooks: ['return.updated'], emails: [] },
    ],
  ])('%s', (_name, before, after, expected) => {
    expect(kinds(eventsOf(before, after))).toEqual(expected)
  })
})

describe('retryAt: the Standard Webhooks schedule', () => {
  const failedAt = new Date('2026-11-20T12:00:00.000Z')
  test.each([
    [1, '2026-11-20T12:00:05.000Z'],
    [2, '2026-11-20T12:05:00.000Z'],
    [3, '2026-11-20T12:30:00.000Z'],
    [4, '2026-11-20T14:00:00.000Z'],
    [5, '2026-11-20T17:00:00.000Z'],
    [6, '2026-11-20T22:00:00.000Z'],
    [7, '2026-11-20T22:00:00.000Z'],
  ])('after failed attempt %i, the next is at %s', (attempts, expected) => {
    expect(retryAt(attempts, failedAt)?.toISOString()).toBe(expected)
  })

  test('after the eighth attempt there is none, over more than 24 hours in all, the first retry within 10 s', () => {
    expect(retryAt(8, failedAt)).toBeNull()
    expect(RETRY_DELAYS_MS[0]).toBeLessThanOrEqual(10_000)
    expect(RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0)).toBe(((27 * 60 + 35) * 60 + 5) * 1000)
  })
})
