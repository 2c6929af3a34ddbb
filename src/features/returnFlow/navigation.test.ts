import type { ReturnOrder } from '../../../contract/api'
import { paths } from '../../../contract/paths'
import { buildLineItem, buildOrder, money } from '../../testing/builders'
import { isExchangeable } from './eligibility'
import {
  configIdFor,
  launchAt,
  needsQuote,
  nextStep,
  previousStep,
  stepAt,
  type NavigationInput,
  type Step,
} from './navigation'
import { returnRequest } from './returnRequest'
import type { ChosenItem, UpsellChoice } from './returnFlowSlice'

// An order of three lines: a tee that can be exchanged, a mug that cannot, a cap that can.
const tee = buildLineItem({ id: 'tee', variant_id: 'tee-m' })
const mug = buildLineItem({ id: 'mug', variant_id: 'mug-1' })
const cap = buildLineItem({ id: 'cap', variant_id: 'cap-1' })
const options = { 'tee-m': ['tee-s', 'tee-m', 'tee-l'], 'mug-1': ['mug-1'], 'cap-1': ['cap-2'] }

function quote(amount: string): ReturnOrder {
  const zero = money('0.00')
  return {
    id: null,
    name: null,
    status: 'quote',
    items: [],
    refund_method: null,
    refund_value: money(amount),
    store_credit_value: null,
    breakdown: { items_subtotal: zero, tax: zero, return_fee: zero, bonus: zero, upsell: zero, total: money(amount) },
    created_at: null,
  }
}

const chosen = (lineItemId: string, exchange: ChosenItem['exchange'] = null): ChosenItem => ({
  lineItemId,
  quantity: 1,
  reason: { id: 'r', comment: '' },
  exchange,
})
const exchanged = (id: string) => chosen(id, { kind: 'exchange', variantId: `${id}-other` })
const refunded = (id: string) => chosen(id, { kind: 'refund' })

interface Setup {
  items: ChosenItem[]
  upsellEnabled?: boolean
  multiplier?: number | null
  refund?: string | null
  upsell?: UpsellChoice | null
  exchangeData?: boolean
}

function input({
  items,
  upsellEnabled = false,
  multiplier = null,
  refund = null,
  upsell = null,
  exchangeData = true,
}: Setup): NavigationInput {
  return {
    flow: {
      order: buildOrder({
        line_items: [tee, mug, cap],
        exchange_data: exchangeData ? { options, upsell_enabled: upsellEnabled, variants: {} } : null,
      }),
      items,
      upsell,
      quote: refund === null ? null : quote(refund),
    },
    multiplier,
  }
}

const reasonStep = (lineItemId: string): Step => ({ kind: 'return-reason', lineItemId })
const exchangeStep = (lineItemId: string): Step => ({ kind: 'exchange', lineItemId })

describe('isExchangeable (docs/rules.md §8)', () => {
  const data = { options: { a: ['a', 'b'], own: ['own'], empty: [] as string[] }, upsell_enabled: false, variants: {} }
  test.each([
    ['options with another variant', { variant_id: 'a' }, data, true],
    ['options only its own variant', { variant_id: 'own' }, data, false],
    ['empty options', { variant_id: 'empty' }, data, false],
    ['no entry for its variant', { variant_id: 'zzz' }, data, false],
    ['no variant_id', { variant_id: null }, data, false],
    ['no exchange data', { variant_id: 'a' }, null, false],
    ['a variant named like an Object property', { variant_id: 'constructor' }, data, false],
  ])('%s → %s', (_name, item, exchangeData, expected) => {
    expect(isExchangeable(item, exchangeData)).toBe(expected)
  })
})

describe('nextStep after a return reason', () => {
  test.each<[string, Setup, Step, string]>([
    [
      'exchangeable, not last',
      { items: [chosen('tee'), chosen('mug')] },
      reasonStep('tee'),
      paths.exchange.build('tee'),
    ],
    [
      'exchangeable, last, upsell on',
      { items: [chosen('mug'), chosen('tee')], upsellEnabled: true },
      reasonStep('tee'),
      paths.exchange.build('tee'),
    ],
    [
      'not exchangeable, last, upsell on',
      { items: [chosen('tee'), chosen('mug')], upsellEnabled: true },
      reasonStep('mug'),
      paths.upsellOffer.build(),
    ],
    [
      'not exchangeable, not last, upsell on',
      { items: [chosen('mug'), chosen('tee')], upsellEnabled: true },
      reasonStep('mug'),
      paths.returnReason.build('tee'),
    ],
    [
      'not exchangeable, not last, upsell off',
      { items: [chosen('mug'), chosen('cap')] },
      reasonStep('mug'),
      paths.returnReason.build('cap'),
    ],
    [
      'no exchange data, last, upsell unknown',
      { items: [chosen('tee')], exchangeData: false },
      reasonStep('tee'),
      paths.confirm.build(),
    ],
    [
      'not exchangeable, last, upsell off, multiplier, value unknown',
      { items: [chosen('mug')], multiplier: 1.1 },
      reasonStep('mug'),
      paths.refundMethod.build(),
    ],
    [
      'not exchangeable, last, upsell off, multiplier, value zero',
      { items: [chosen('mug')], multiplier: 1.1, refund: '0.00' },
      reasonStep('mug'),
      paths.confirm.build(),
    ],
    [
      'not exchangeable, last, upsell off, no multiplier',
      { items: [chosen('mug')], refund: '9.00' },
      reasonStep('mug'),
      paths.confirm.build(),
    ],
  ])('%s', (_name, setup, step, expected) => {
    expect(nextStep(input(setup), step)).toBe(expected)
  })
})

describe('nextStep on any other step', () => {
  test.each<[string, Setup, Step, string]>([
    // Rule 1: the next item's return-reason step.
    [
      'products → first chosen item',
      { items: [chosen('mug'), chosen('cap')] },
      { kind: 'products' },
      paths.returnReason.build('mug'),
    ],
    [
      'exchange, not last → next item',
      { items: [exchanged('tee'), chosen('mug')], upsellEnabled: true, multiplier: 1.1 },
      exchangeStep('tee'),
      paths.returnReason.build('mug'),
    ],
    // Rule 2: upsell on and some item has no exchange variant.
    [
      'last exchange, upsell on, another item refunded',
      { items: [refunded('mug'), exchanged('tee')], upsellEnabled: true },
      exchangeStep('tee'),
      paths.upsellOffer.build(),
    ],
    [
      'last exchange refused, upsell on',
      { items: [refunded('tee')], upsellEnabled: true },
      exchangeStep('tee'),
      paths.upsellOffer.build(),
    ],
    [
      'last exchange, upsell on, every item exchanged, multiplier',
      { items: [exchanged('tee'), exchanged('cap')], upsellEnabled: true, multiplier: 1.1 },
      exchangeStep('cap'),
      paths.confirm.build(),
    ],
    // Rule 3: multiplier, some item not exchanged, refund value above zero or unknown.
    [
      'upsell off, multiplier, item refunded, value unknown',
      { items: [refunded('tee')], multiplier: 1.1 },
      exchangeStep('tee'),
      paths.refundMethod.build(),
    ],
    [
      'upsell off, multiplier, item refunded, value positive',
      { items: [refunded('tee')], multiplier: 1.1, refund: '0.01' },
      exchangeStep('tee'),
      paths.refundMethod.build(),
    ],
    [
      'upsell off, multiplier, item refunded, value zero',
      { items: [refunded('tee')], multiplier: 1.1, refund: '0.00' },
      exchangeStep('tee'),
      paths.confirm.build(),
    ],
    [
      'upsell off, multiplier, every item exchanged',
      { items: [exchanged('tee')], multiplier: 1.1, refund: '5.00' },
      exchangeStep('tee'),
      paths.confirm.build(),
    ],
    [
      'upsell off, multiplier 1 still counts as configured',
      { items: [refunded('tee')], multiplier: 1 },
      exchangeStep('tee'),
      paths.refundMethod.build(),
    ],
    // Rule 4.
    [
      'upsell off, no multiplier, item refunded',
      { items: [refunded('tee')], refund: '5.00' },
      exchangeStep('tee'),
      paths.confirm.build(),
    ],
    [
      'upsell off, no multiplier, value unknown',
      { items: [refunded('tee')] },
      exchangeStep('tee'),
      paths.confirm.build(),
    ],
  ])('%s', (_name, setup, step, expected) => {
    expect(nextStep(input(setup), step)).toBe(expected)
  })
})

describe('nextStep after the upsell steps (never back to themselves)', () => {
  test.each<[string, Setup, Step, string]>([
    [
      'offer declined, multiplier, value unknown',
      { items: [refunded('tee')], upsellEnabled: true, multiplier: 1.1, upsell: { kind: 'declined' } },
      { kind: 'upsell-offer' },
      paths.refundMethod.build(),
    ],
    [
      'offer declined, multiplier, value zero',
      { items: [refunded('tee')], upsellEnabled: true, multiplier: 1.1, refund: '0.00', upsell: { kind: 'declined' } },
      { kind: 'upsell-offer' },
      paths.confirm.build(),
    ],
    [
      'offer declined, no multiplier',
      { items: [refunded('tee')], upsellEnabled: true, upsell: { kind: 'declined' } },
      { kind: 'upsell-offer' },
      paths.confirm.build(),
    ],
    // A new item is not the exchange of an item, so the tee is still not exchanged.
    [
      'exploration done with a replacement, multiplier, value unknown',
      {
        items: [refunded('tee')],
        upsellEnabled: true,
        multiplier: 1.1,
        upsell: { kind: 'accepted', variantId: 'hat' },
      },
      { kind: 'upsell-explore' },
      paths.refundMethod.build(),
    ],
    [
      'exploration done with a replacement, multiplier, remainder positive',
      {
        items: [refunded('tee')],
        upsellEnabled: true,
        multiplier: 1.1,
        refund: '10.15',
        upsell: { kind: 'accepted', variantId: 'hat' },
      },
      { kind: 'upsell-explore' },
      paths.refundMethod.build(),
    ],
    [
      'exploration done with a replacement that takes the whole credit',
      {
        items: [refunded('tee')],
        upsellEnabled: true,
        multiplier: 1.1,
        refund: '0.00',
        upsell: { kind: 'accepted', variantId: 'hat' },
      },
      { kind: 'upsell-explore' },
      paths.confirm.build(),
    ],
    [
      'exploration done with a replacement, no multiplier',
      { items: [refunded('tee')], upsellEnabled: true, refund: '5.00', upsell: { kind: 'accepted', variantId: 'hat' } },
      { kind: 'upsell-explore' },
      paths.confirm.build(),
    ],
    [
      'exploration done with a replacement, every item exchanged',
      {
        items: [exchanged('tee'), exchanged('cap')],
        upsellEnabled: true,
        multiplier: 1.1,
        upsell: { kind: 'accepted', variantId: 'hat' },
      },
      { kind: 'upsell-explore' },
      paths.confirm.build(),
    ],
    [
      'exploration left without a replacement, value positive',
      {
        items: [refunded('tee')],
        upsellEnabled: true,
        multiplier: 1.1,
        refund: '3.00',
        upsell: { kind: 'accepted', variantId: null },
      },
      { kind: 'upsell-explore' },
      paths.refundMethod.build(),
    ],
    [
      'offer accepted → exploration',
      { items: [refunded('tee')], upsellEnabled: true, multiplier: 1.1, upsell: { kind: 'accepted', variantId: null } },
      { kind: 'upsell-offer' },
      paths.upsellExplore.build(),
    ],
    [
      'confirm → return instructions',
      { items: [refunded('tee')] },
      { kind: 'confirm' },
      paths.returnInstruction.build(),
    ],
    [
      'refund method → confirm',
      { items: [refunded('tee')], upsellEnabled: true, multiplier: 1.1 },
      { kind: 'refund-method' },
      paths.confirm.build(),
    ],
  ])('%s', (_name, setup, step, expected) => {
    expect(nextStep(input(setup), step)).toBe(expected)
  })
})

describe('needsQuote', () => {
  test('asks for a quote only when the route hangs on an unknown refund value', () => {
    expect(needsQuote(input({ items: [refunded('tee')], multiplier: 1.1 }), exchangeStep('tee'))).toBe(true)
    expect(needsQuote(input({ items: [refunded('tee')], multiplier: 1.1, refund: '2.00' }), exchangeStep('tee'))).toBe(
      false,
    )
    expect(needsQuote(input({ items: [refunded('tee')] }), exchangeStep('tee'))).toBe(false)
    expect(needsQuote(input({ items: [refunded('tee'), chosen('mug')], multiplier: 1.1 }), exchangeStep('tee'))).toBe(
      false,
    )
    // After a new item the remainder decides between the refund method and confirm.
    expect(
      needsQuote(
        input({
          items: [refunded('tee')],
          upsellEnabled: true,
          multiplier: 1.1,
          upsell: { kind: 'accepted', variantId: 'hat' },
        }),
        { kind: 'upsell-explore' },
      ),
    ).toBe(true)
  })
})

describe('previousStep (Back without history)', () => {
  const flowOf = (setup: Setup, refundMethod: 'store_credit' | null = null) => ({ ...input(setup).flow, refundMethod })
  test.each<[string, ReturnType<typeof flowOf>, Step, string]>([
    ['products → the start screen', flowOf({ items: [] }), { kind: 'products' }, paths.start.build()],
    ['a reason → the items', flowOf({ items: [chosen('tee')] }), reasonStep('tee'), paths.products.build()],
    [
      'an exchange → its reason',
      flowOf({ items: [chosen('tee')] }),
      exchangeStep('tee'),
      paths.returnReason.build('tee'),
    ],
    [
      'the offer → the last item’s exchange',
      flowOf({ items: [chosen('mug'), chosen('tee')] }),
      { kind: 'upsell-offer' },
      paths.exchange.build('tee'),
    ],
    [
      'the offer → the last item’s reason when it has no exchange',
      flowOf({ items: [chosen('tee'), chosen('mug')] }),
      { kind: 'upsell-offer' },
      paths.returnReason.build('mug'),
    ],
    [
      'the exploration → the offer',
      flowOf({ items: [chosen('tee')] }),
      { kind: 'upsell-explore' },
      paths.upsellOffer.build(),
    ],
    [
      'the refund method after an accepted offer → the exploration',
      flowOf({ items: [chosen('tee')], upsell: { kind: 'accepted', variantId: 'hat' } }),
      { kind: 'refund-method' },
      paths.upsellExplore.build(),
    ],
    [
      'the refund method after a declined offer → the offer',
      flowOf({ items: [chosen('tee')], upsell: { kind: 'declined' } }),
      { kind: 'refund-method' },
      paths.upsellOffer.build(),
    ],
    [
      'the refund method without an offer → the last item',
      flowOf({ items: [chosen('tee'), chosen('mug')] }),
      { kind: 'refund-method' },
      paths.returnReason.build('mug'),
    ],
    [
      'confirm with a method → the refund method',
      flowOf({ items: [chosen('tee')], upsell: { kind: 'declined' } }, 'store_credit'),
      { kind: 'confirm' },
      paths.refundMethod.build(),
    ],
    [
      'confirm without a method → where the refund method would have come from',
      flowOf({ items: [chosen('tee')], upsell: { kind: 'accepted', variantId: null } }),
      { kind: 'confirm' },
      paths.upsellExplore.build(),
    ],
    ['confirm with no item → the items', flowOf({ items: [] }), { kind: 'confirm' }, paths.products.build()],
  ])('%s', (_name, flow, step, expected) => {
    expect(previousStep(flow, step)).toBe(expected)
  })
})

describe('stepAt', () => {
  test.each([
    ['/products', 'products'],
    ['/return-item/tee/return-reason', 'returnReason'],
    ['/return-item/gid%3A%2F%2Fshopify%2FLineItem%2F1/exchange', 'exchange'],
    // As the router matches: any case, a trailing slash.
    ['/Upsell-Offer/', 'upsellOffer'],
    ['/return-instruction', 'returnInstruction'],
    ['/', null],
    ['/support', null],
    ['/status/r-1', null],
    ['/products/more', null],
  ])('%s', (pathname, expected) => {
    expect(stepAt(pathname)).toBe(expected)
  })
})

test('launchAt: the URL’s parameters on the start screen, the session’s on a step', () => {
  const stored = { lang: 'fr', testMode: false, configOverride: null }
  const search = '?lang=de&testMode=1'
  expect(launchAt({ pathname: '/', search }, stored)).toEqual({ lang: 'de', testMode: true, configOverride: null })
  expect(launchAt({ pathname: '/anything', search }, stored)).toEqual({
    lang: 'de',
    testMode: true,
    configOverride: null,
  })
  expect(launchAt({ pathname: '/confirm', search }, stored)).toBe(stored)
})

test('configIdFor: the host’s shop, with the language variant', () => {
  expect(configIdFor('de', 'acme.localhost')).toBe('acme-de')
  expect(configIdFor(null, 'acme.returns.example.com')).toBe('acme')
})

describe('returnRequest', () => {
  test('builds the body from the choices, in order', () => {
    expect(
      returnRequest({
        items: [
          {
            lineItemId: 'tee',
            quantity: 2,
            reason: { id: 'small', comment: '  too tight ' },
            exchange: { kind: 'exchange', variantId: 'tee-l' },
          },
          { lineItemId: 'mug', quantity: 1, reason: { id: 'broken', comment: '' }, exchange: null },
        ],
        upsell: { kind: 'declined' },
        refundMethod: 'store_credit',
      }),
    ).toEqual({
      items: [
        { line_item_id: 'tee', quantity: 2, reason_id: 'small', comment: 'too tight', exchange_variant_id: 'tee-l' },
        { line_item_id: 'mug', quantity: 1, reason_id: 'broken', exchange_variant_id: null },
      ],
      upsell_variant_id: null,
      refund_method: 'store_credit',
    })
  })

  test('is null while an item has no reason', () => {
    expect(
      returnRequest({
        items: [{ lineItemId: 'tee', quantity: 1, reason: null, exchange: null }],
        upsell: null,
        refundMethod: null,
      }),
    ).toBeNull()
  })
})
