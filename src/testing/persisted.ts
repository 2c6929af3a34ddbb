import fc from 'fast-check'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildQuote, buildSubmittedReturn, buildVariant } from './builders'

/**
 * What sessionStorage may hold for the flow, for the persisted-state property tests: a complete
 * flow as redux-persist writes it, and that text spoiled in the ways storage gets spoiled (a
 * field changed or gone, the text cut short, another version, another app's shape).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Path = (string | number)[]

/** A flow with every part set: #1001's tee exchanged for L, its mug refunded, quoted and submitted. */
export function completeFlow(): ReturnFlowState {
  const small = buildVariant({ id: 'tee-s', title: 'S' })
  const medium = buildVariant({ id: 'tee-m', title: 'M' })
  const large = buildVariant({ id: 'tee-l', title: 'L' })
  const order = buildOrder({
    order_id: 'order-1001',
    line_items: [
      buildLineItem({ id: 'tee', variant_id: 'tee-m', title: 'Classic Tee', quantity: 2, returnable_quantity: 2 }),
      buildLineItem({ id: 'mug', variant_id: 'mug-default', title: 'Ceramic Mug', variant_title: null }),
    ],
    exchange_data: {
      options: { 'tee-m': ['tee-s', 'tee-m', 'tee-l'] },
      upsell_enabled: true,
      variants: { 'tee-s': small, 'tee-m': medium, 'tee-l': large },
    },
    return_reasons: [
      { id: 'too-small', label: 'Too small', comment_required: false },
      { id: 'damaged', label: 'Damaged', comment_required: true },
    ],
  })
  return buildFlow({
    launch: { lang: 'de', testMode: true, configOverride: null },
    order,
    items: [
      {
        lineItemId: 'tee',
        quantity: 1,
        reason: { id: 'too-small', comment: '' },
        exchange: { kind: 'exchange', variantId: 'tee-l' },
      },
      { lineItemId: 'mug', quantity: 1, reason: { id: 'damaged', comment: 'cracked' }, exchange: { kind: 'refund' } },
    ],
    upsell: { kind: 'declined' },
    refundMethod: 'store_credit',
    quote: buildQuote('14.00', { refund_method: 'store_credit' }),
    idempotencyKey: 'key-0001-abcdef',
    submitted: buildSubmittedReturn(),
  })
}

/** The text redux-persist writes: each top-level field and `_persist` as JSON inside JSON. */
export function persistedText(state: object, version: Json = 1): string {
  const outer: Record<string, string> = {}
  for (const [key, value] of Object.entries(state)) outer[key] = JSON.stringify(value)
  outer._persist = JSON.stringify({ version, rehydrated: true })
  return JSON.stringify(outer)
}

/** Every path into a value: its objects and arrays as well as its leaves. */
function pathsOf(value: unknown, path: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [path]
  const children = Array.isArray(value)
    ? value.map((item, index) => pathsOf(item, [...path, index]))
    : Object.entries(value).map(([key, item]) => pathsOf(item, [...path, key]))
  return [path, ...children.flat()]
}

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    null,
    '',
    0,
    -1,
    1.5,
    1e21,
    true,
    [],
    {},
    'tee',
    'tee-s',
    '<img src=x onerror=alert(1)>',
    { kind: 'exchange' },
    { amount: 'NaN' },
  ),
)

type Spoil = (text: string, state: Record<string, unknown>) => string

function setAt(state: unknown, path: Path, value: Json | undefined): unknown {
  if (path.length === 0) return value
  const copy = structuredClone(state) as Record<string | number, unknown>
  let at = copy
  for (const segment of path.slice(0, -1)) {
    const next = at[segment]
    // An earlier spoil took this part away: nothing left here to spoil.
    if (next === null || typeof next !== 'object') return copy
    at = next as Record<string | number, unknown>
  }
  const last = path.at(-1)!
  if (value === undefined && Array.isArray(at)) at.splice(Number(last), 1)
  else if (value === undefined) delete at[last]
  else at[last] = value
  return copy
}

const PATHS = pathsOf(completeFlow()).filter((path) => path.length > 0)

/** One way storage gets spoiled, applied to the text or the state behind it. */
const spoil: fc.Arbitrary<Spoil> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.tuple(fc.constantFrom(...PATHS), hostileValue).map(
      ([path, value]): Spoil =>
        (_text, state) =>
          persistedText(setAt(state, path, value) as object),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...PATHS).map(
      (path): Spoil =>
        (_text, state) =>
          persistedText(setAt(state, path, undefined) as object),
    ),
  },
  fc.double({ min: 0, max: 1, noNaN: true }).map(
    (at): Spoil =>
      (text) =>
        text.slice(0, Math.floor(text.length * at)),
  ),
  fc
    .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ maxLength: 5 }))
    .map(([at, insert]): Spoil => (text) => {
      const index = Math.floor(text.length * at)
      return text.slice(0, index) + insert + text.slice(index + 1)
    }),
  fc.oneof(fc.constantFrom<Json>(0, -1, 2, 99, '1', null), hostileValue).map(
    (version): Spoil =>
      (_text, state) =>
        persistedText(state, version),
  ),
  fc
    .tuple(fc.constantFrom('launch', 'order', 'items'), fc.string({ maxLength: 20 }))
    .map(([key, raw]): Spoil => (text) => {
      // A field whose inner JSON is broken, the outer text intact (when it still parses).
      try {
        const outer = JSON.parse(text) as Record<string, string>
        outer[key] = raw
        return JSON.stringify(outer)
      } catch {
        return text
      }
    }),
  (fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>).map(
    (foreign): Spoil =>
      () =>
        JSON.stringify(foreign),
  ),
)

/** The text of a complete flow, spoiled one to three times (each on the result of the last). */
export const spoiledPersistedText: fc.Arbitrary<string> = fc
  .array(spoil, { minLength: 1, maxLength: 3 })
  .map((spoils) => {
    let state = completeFlow() as unknown as Record<string, unknown>
    let text = persistedText(state)
    for (const apply of spoils) {
      text = apply(text, state)
      try {
        // What the next spoil changes is what the text now holds, where it still parses.
        const outer = JSON.parse(text) as Record<string, string>
        state = Object.fromEntries(
          Object.entries(outer)
            .filter(([key]) => key !== '_persist')
            .map(([key, value]) => [key, JSON.parse(value)]),
        )
      } catch {
        break
      }
    }
    return text
  })

/** What redux-persist's getStoredState makes of the text: each field parsed; undefined where it throws. */
export function readPersisted(text: string): unknown {
  try {
    const outer = JSON.parse(text) as Record<string, unknown>
    const state: Record<string, unknown> = {}
    for (const key of Object.keys(outer)) state[key] = JSON.parse(outer[key] as string)
    return state
  } catch {
    return undefined
  }
}
