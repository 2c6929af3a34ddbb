import type { ReturnItemState, ReturnStatus } from '../../../contract/api'
import { itemStates } from '../../../contract/constants'
import {
  engineActionsDue,
  engineNote,
  type EngineAction,
  type EngineReturn,
  type InspectedItem,
  type WrittenAction,
} from './engineActions'

/** A line of the return: `exchange` names the variant it is exchanged for, `received` that it arrived. */
interface Line {
  id: string
  state: ReturnItemState
  keep?: boolean
  exchange?: string
  received?: boolean
  quantity?: number
}

const money = (amount: string) => ({ amount, currency_code: 'EUR' })

function engineReturn(
  lines: Line[],
  options: {
    refund?: 'none' | 'later' | 'at_once'
    method?: 'original_payment' | 'store_credit'
    amount?: string
    refundValue?: string
    credit?: string
    newItem?: 'to_be_sent' | 'sent'
    review?: 'pending' | 'approved' | 'rejected'
    inspections?: InspectedItem[]
    ended?: 'cancelled' | 'closed'
  } = {},
): EngineReturn {
  const refund = options.refund ?? 'later'
  const method = options.method ?? 'original_payment'
  const amount = options.amount ?? '25.00'
  const status: ReturnStatus = {
    return_id: 'r1',
    return_name: '#1001-R1',
    created_at: '2026-11-20T12:00:00.000Z',
    items: lines.map((line) => ({
      line_item_id: line.id,
      title: line.id,
      variant_title: null,
      quantity: line.quantity ?? 1,
      image_src: null,
      exchange_variant_title: line.exchange ? `to ${line.exchange}` : null,
      keep: line.keep ?? false,
      states: [...itemStates(line.keep ?? false)],
      state: line.state,
      history: [],
    })),
    refund:
      refund === 'none'
        ? null
        : {
            method,
            amount: money(amount),
            timing: null,
            expected: null,
            ...(refund === 'at_once' ? { issued_at: '2026-11-20T12:00:00.000Z' } : {}),
            ...(options.credit
              ? { store_credit: { code: options.credit, amount: money(amount), issued_at: '2026-11-21T00:00:00Z' } }
              : {}),
          },
    label: null,
    address: { name: 'Returns', line1: 'Street 1', city: 'Town', postal_code: '1', country_code: 'DE' },
    ...(options.newItem
      ? {
          new_item: {
            variant_id: 'variant_mug',
            product_title: 'Mug',
            title: '',
            price: { shop_money: money('10.00'), presentment_money: money('10.00') },
            image_src: null,
            state: options.newItem,
          },
        }
      : {}),
    ...(options.review ? { review: { state: options.review } } : {}),
    ...(options.ended ? { ended: { state: options.ended, at: '2026-11-22T00:00:00.000Z' } } : {}),
  }
  return {
    order_id: 'order_1',
    status,
    lines: lines.map((line) => ({
      line_item_id: line.id,
      exchange_variant_id: line.exchange ?? null,
      events: line.received ? [{ state: 'received' as const, at: new Date('2026-11-21T00:00:00Z') }] : [],
    })),
    answer: {
      items: lines.map((line) => ({
        line_item_id: line.id,
        title: line.id,
        variant_title: null,
        quantity: line.quantity ?? 1,
        reason_id: 'r',
        reason_label: line.keep ? 'Changed my mind' : 'Too small',
        comment: null,
        exchange_variant_id: line.exchange ?? null,
        exchange_variant_title: null,
      })),
      refund_value: {
        shop_money: money(options.refundValue ?? amount),
        presentment_money: money(options.refundValue ?? amount),
      },
    },
    inspections: options.inspections ?? [],
    email: 'ines@example.com',
  }
}

/** Every action due, written one after another as the writer does (storage/outbox.ts). */
function writeAll(input: EngineReturn, written: WrittenAction[] = []): WrittenAction[] {
  const all = [...written]
  for (let due = engineActionsDue(input, all); due.length > 0; due = engineActionsDue(input, all))
    all.push({ id: `act_${all.length + 1}`, action: due[0]! })
  return all.slice(written.length)
}

const kindsOf = (actions: readonly (EngineAction | WrittenAction)[]) =>
  actions.map((entry) => ('action' in entry ? entry.action.kind : entry.kind))

describe('engineActionsDue: what a return of an engine order still asks of the engine', () => {
  test('a submitted return opens a return of the items sent back, not those kept, with its number and reasons', () => {
    const actions = engineActionsDue(
      engineReturn([
        { id: 'tee', state: 'requested', quantity: 2 },
        { id: 'sock', state: 'requested', keep: true },
      ]),
      [],
    )
    expect(actions).toEqual([
      {
        kind: 'request_return',
        order_id: 'order_1',
        items: [{ line_item_id: 'tee', quantity: 2 }],
        note: 'Rebound #1001-R1: Too small',
      },
    ])
  })

  test('a return that waits for review, or was rejected, opens nothing; approved, it opens', () => {
    const lines = [{ id: 'tee', state: 'requested' as const }]
    expect(engineActionsDue(engineReturn(lines, { review: 'pending' }), [])).toEqual([])
    expect(engineActionsDue(engineReturn(lines, { review: 'rejected' }), [])).toEqual([])
    expect(kindsOf(engineActionsDue(engineReturn(lines, { review: 'approved' }), []))).toEqual(['request_return'])
  })

  test('a change told again writes nothing more', () => {
    const input = engineReturn([{ id: 'tee', state: 'refunded', received: true }], {
      inspections: [{ line_item_id: 'tee', arrived: true, restock: true }],
    })
    const first = writeAll(input)
    expect(kindsOf(first)).toEqual(['request_return', 'receive_return', 'refund'])
    expect(engineActionsDue(input, first)).toEqual([])
  })

  test('the receipt names its return by the request row, restocking what the inspection restocked', () => {
    const opened = writeAll(
      engineReturn([
        { id: 'tee', state: 'requested' },
        { id: 'cap', state: 'requested' },
      ]),
    )
    const inspected = engineReturn(
      [
        { id: 'tee', state: 'received', received: true },
        { id: 'cap', state: 'received', received: true },
      ],
      {
        inspections: [
          { line_item_id: 'tee', arrived: true, restock: true },
          { line_item_id: 'cap', arrived: true, restock: false },
        ],
      },
    )
    expect(engineActionsDue(inspected, opened)).toEqual([
      {
        kind: 'receive_return',
        order_id: 'order_1',
        return_key: opened[0]!.id,
        items: [
          { line_item_id: 'tee', quantity: 1, restock: true },
          { line_item_id: 'cap', quantity: 1, restock: false },
        ],
      },
    ])
  })

  test('a line inspected unit by unit is received in parts: its restocked units into stock, the rest dismissed', () => {
    const opened = writeAll(engineReturn([{ id: 'tee', state: 'requested', quantity: 3 }]))
    const unit = (restock: boolean, arrived = true): InspectedItem => ({
      line_item_id: 'tee',
      arrived,
      restock,
      quantity: 1,
    })
    const receipt = (inspections: InspectedItem[]) =>
      engineActionsDue(
        engineReturn([{ id: 'tee', state: 'received', received: true, quantity: 3 }], { inspections }),
        opened,
      )[0]
    expect(receipt([unit(true), unit(false), unit(true)])).toEqual({
      kind: 'receive_return',
      order_id: 'order_1',
      return_key: opened[0]!.id,
      items: [
        { line_item_id: 'tee', quantity: 2, restock: true },
        { line_item_id: 'tee', quantity: 1, restock: false },
      ],
    })
    // A missing unit is neither: only what came back is received.
    expect(receipt([unit(true), unit(false, false), unit(false)])).toMatchObject({
      items: [
        { line_item_id: 'tee', quantity: 1, restock: true },
        { line_item_id: 'tee', quantity: 1, restock: false },
      ],
    })
    // A row of the whole line (inspected before units were) stands for every unit.
    expect(receipt([{ line_item_id: 'tee', arrived: true, restock: true }])).toMatchObject({
      items: [{ line_item_id: 'tee', quantity: 3, restock: true }],
    })
  })

  test('a partial receipt waits: one item inspected, the other on its way, receives nothing yet', () => {
    const opened = writeAll(
      engineReturn([
        { id: 'tee', state: 'requested' },
        { id: 'cap', state: 'requested' },
      ]),
    )
    const half = engineReturn(
      [
        { id: 'tee', state: 'received', received: true },
        { id: 'cap', state: 'in_transit' },
      ],
      { inspections: [{ line_item_id: 'tee', arrived: true, restock: true }] },
    )
    expect(engineActionsDue(half, opened)).toEqual([])
  })

  test('received by a move and not inspected: settled at its last step, received without restock', () => {
    const opened = writeAll(engineReturn([{ id: 'tee', state: 'requested' }]))
    expect(engineActionsDue(engineReturn([{ id: 'tee', state: 'received', received: true }]), opened)).toEqual([])
    const done = writeAll(engineReturn([{ id: 'tee', state: 'refunded', received: true }]), opened)
    expect(done.map((entry) => entry.action)).toEqual([
      {
        kind: 'receive_return',
        order_id: 'order_1',
        return_key: opened[0]!.id,
        items: [{ line_item_id: 'tee', quantity: 1, restock: false }],
      },
      { kind: 'refund', order_id: 'order_1', amount_minor: 2500, note: 'Rebound #1001-R1: Too small' },
    ])
  })

  test('a missing item is not received; when nothing arrived, no receipt is written', () => {
    const opened = writeAll(
      engineReturn([
        { id: 'tee', state: 'requested' },
        { id: 'cap', state: 'requested' },
      ]),
    )
    const oneMissing = engineReturn(
      [
        { id: 'tee', state: 'received', received: true },
        { id: 'cap', state: 'requested' },
      ],
      {
        inspections: [
          { line_item_id: 'tee', arrived: true, restock: true },
          { line_item_id: 'cap', arrived: false, restock: false },
        ],
      },
    )
    const [receipt] = engineActionsDue(oneMissing, opened)
    expect(receipt).toMatchObject({ kind: 'receive_return', items: [{ line_item_id: 'tee', restock: true }] })
    const allMissing = engineReturn(
      [
        { id: 'tee', state: 'requested' },
        { id: 'cap', state: 'requested' },
      ],
      {
        refund: 'none',
        inspections: [
          { line_item_id: 'tee', arrived: false, restock: false },
          { line_item_id: 'cap', arrived: false, restock: false },
        ],
      },
    )
    expect(engineActionsDue(allMissing, opened)).toEqual([])
  })

  test('the refund is the amount after deductions in minor units, never more than the return refunds', () => {
    const deducted = writeAll(engineReturn([{ id: 'tee', state: 'refunded', received: true }], { amount: '22.50' }))
    expect(deducted.at(-1)!.action).toEqual({
      kind: 'refund',
      order_id: 'order_1',
      amount_minor: 2250,
      note: 'Rebound #1001-R1: Too small',
    })
    const over = writeAll(
      engineReturn([{ id: 'tee', state: 'refunded', received: true }], { amount: '30.00', refundValue: '25.00' }),
    )
    expect(over.at(-1)!.action).toMatchObject({ kind: 'refund', amount_minor: 2500 })
    const nothing = writeAll(engineReturn([{ id: 'tee', state: 'refunded', received: true }], { amount: '0.00' }))
    expect(kindsOf(nothing)).toEqual(['request_return', 'receive_return'])
  })

  test('no refund before the return is refunded; a refund at once goes with the submission', () => {
    expect(kindsOf(writeAll(engineReturn([{ id: 'tee', state: 'received', received: true }])))).toEqual([
      'request_return',
    ])
    const atOnce = writeAll(engineReturn([{ id: 'sock', state: 'refunded', keep: true }], { refund: 'at_once' }))
    expect(kindsOf(atOnce)).toEqual(['refund'])
  })

  test('store credit: the code issued, its amount, currency and the shopper’s e-mail', () => {
    const credited = writeAll(
      engineReturn([{ id: 'tee', state: 'refunded', received: true }], {
        method: 'store_credit',
        amount: '27.50',
        credit: 'GC-AAAA-BBBB-CCCC-DDDD',
      }),
    )
    expect(credited.at(-1)!.action).toEqual({
      kind: 'store_credit',
      code: 'GC-AAAA-BBBB-CCCC-DDDD',
      amount_minor: 2750,
      currency: 'EUR',
      email: 'ines@example.com',
    })
    expect(credited.filter((entry) => entry.action.kind === 'refund')).toEqual([])
  })

  test('an exchange is asked for once its new item is released, each item once; exchanged items are not in the return', () => {
    const submitted = writeAll(
      engineReturn([
        { id: 'tee', state: 'requested', exchange: 'variant_tee_l' },
        { id: 'cap', state: 'requested' },
      ]),
    )
    expect(submitted.map((entry) => entry.action)).toEqual([
      {
        kind: 'request_return',
        order_id: 'order_1',
        items: [{ line_item_id: 'cap', quantity: 1 }],
        note: 'Rebound #1001-R1: Too small',
      },
    ])
    const released = engineReturn(
      [
        { id: 'tee', state: 'refunded', exchange: 'variant_tee_l', received: true, quantity: 2 },
        { id: 'cap', state: 'received', received: true },
      ],
      { refund: 'none', inspections: [{ line_item_id: 'tee', arrived: true, restock: true }] },
    )
    const exchanged = writeAll(released, submitted)
    expect(exchanged.map((entry) => entry.action)).toEqual([
      {
        kind: 'exchange',
        order_id: 'order_1',
        return_items: [{ line_item_id: 'tee', quantity: 2 }],
        new_items: [{ variant_id: 'variant_tee_l', quantity: 2 }],
      },
    ])
    expect(engineActionsDue(released, [...submitted, ...exchanged])).toEqual([])
  })

  test('the new item taken with the return is asked for once it is sent', () => {
    const lines = [{ id: 'tee', state: 'refunded' as const, received: true }]
    expect(kindsOf(writeAll(engineReturn(lines, { newItem: 'to_be_sent', refund: 'none' })))).toEqual([
      'request_return',
      'receive_return',
    ])
    const sent = writeAll(engineReturn(lines, { newItem: 'sent', refund: 'none' }))
    expect(sent.at(-1)!.action).toEqual({
      kind: 'exchange',
      order_id: 'order_1',
      return_items: [],
      new_items: [{ variant_id: 'variant_mug', quantity: 1 }],
    })
  })

  test('a cancelled return cancels the return its request opened, naming the request row, once', () => {
    const lines = [{ id: 'tee', state: 'requested' as const }]
    const opened = writeAll(engineReturn(lines))
    const cancelled = engineReturn(lines, { ended: 'cancelled' })
    const due = engineActionsDue(cancelled, opened)
    expect(due).toEqual([{ kind: 'cancel_return', order_id: 'order_1', return_key: opened[0]!.id }])
    expect(engineActionsDue(cancelled, [...opened, { id: 'act_9', action: due[0]! }])).toEqual([])
  })

  test('nothing to cancel: no request written (waiting for review, all kept), or a closed return', () => {
    expect(engineActionsDue(engineReturn([{ id: 'tee', state: 'requested' }], { ended: 'cancelled' }), [])).toEqual([])
    const kept = [{ id: 'sock', state: 'requested' as const, keep: true }]
    expect(writeAll(engineReturn(kept, { ended: 'cancelled' }), writeAll(engineReturn(kept)))).toEqual([])
    const lines = [{ id: 'tee', state: 'requested' as const }]
    expect(engineActionsDue(engineReturn(lines, { ended: 'closed' }), writeAll(engineReturn(lines)))).toEqual([])
  })

  test('a return received in the engine is never cancelled there', () => {
    const received = writeAll(
      engineReturn([{ id: 'tee', state: 'received', received: true }], {
        refund: 'none',
        inspections: [{ line_item_id: 'tee', arrived: true, restock: true }],
      }),
    )
    expect(kindsOf(received)).toEqual(['request_return', 'receive_return'])
    const ended = engineReturn([{ id: 'tee', state: 'received', received: true }], {
      refund: 'none',
      ended: 'cancelled',
      inspections: [{ line_item_id: 'tee', arrived: true, restock: true }],
    })
    expect(engineActionsDue(ended, received)).toEqual([])
  })

  test('the note names the return and its reasons once each', () => {
    expect(engineNote('#1001-R1', ['Too small', 'Damaged', 'Too small'])).toBe('Rebound #1001-R1: Too small; Damaged')
    expect(engineNote('#1001-R1', [])).toBe('Rebound #1001-R1')
  })
})
