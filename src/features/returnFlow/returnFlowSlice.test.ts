import type { UnknownAction } from '@reduxjs/toolkit'
import { buildLineItem, buildOrder, buildQuote, buildSubmittedReturn } from '../../testing/builders'
import {
  exchangeChosen,
  initialState,
  itemsChosen,
  orderVerified,
  portalOpened,
  reasonGiven,
  reasonPhotoAdded,
  reasonPhotoRemoved,
  reasonWithdrawn,
  refundMethodChosen,
  refundPreferred,
  returnFlowSlice,
  returnSubmitted,
  sessionExpired,
  submitStarted,
  supportSessionOpened,
  upsellAccepted,
  upsellDeclined,
  upsellVariantChosen,
  type ChosenItem,
  type ReturnFlowState,
} from './returnFlowSlice'
import type { ReturnOrder } from '../../../contract/api'
import type { Launch } from '../../../contract/launch'
import { portalApi } from '../../api/portalApi'

// An order of two lines: two tees in M (S and L offered in exchange) and a mug with no exchange.
const tee = buildLineItem({ id: 'tee', variant_id: 'tee-m', quantity: 2, returnable_quantity: 2 })
const mug = buildLineItem({ id: 'mug', variant_id: 'mug-1', quantity: 1, returnable_quantity: 1 })
const order = buildOrder({
  line_items: [tee, mug],
  exchange_data: { options: { 'tee-m': ['tee-s', 'tee-m', 'tee-l'] }, upsell_enabled: true, variants: {} },
})
const anotherOrder = buildOrder({ order_id: 'another' })
const launch: Launch = { lang: 'de', testMode: true, configOverride: null }
const quote = buildQuote('14.00')
const submitted = buildSubmittedReturn()

const teeItem = (overrides: Partial<ChosenItem> = {}): ChosenItem => ({
  lineItemId: 'tee',
  quantity: 2,
  reason: null,
  exchange: null,
  ...overrides,
})

/** The tee chosen (as `overrides` say), a refund method, and the choices priced and submitted. */
const submittedFlow = (overrides: Partial<ReturnFlowState> = {}): ReturnFlowState => ({
  ...initialState,
  launch,
  order,
  items: [teeItem()],
  refundMethod: 'store_credit',
  quote,
  idempotencyKey: 'key-1',
  submitted,
  ...overrides,
})
/** What a change of a choice clears: the quote, the submit key and the submitted return. */
const stale = { quote: null, idempotencyKey: null, submitted: null }

/** What RTK Query dispatches when the quote endpoint answers (the slice takes it through a matcher). */
const quoteFulfilled = (payload: ReturnOrder, current: boolean): UnknownAction => ({
  type: `${portalApi.reducerPath}/executeQuery/fulfilled`,
  payload,
  meta: {
    requestId: 'request-1',
    requestStatus: 'fulfilled',
    fulfilledTimeStamp: 0,
    baseQueryMeta: {},
    arg: {
      type: 'query',
      endpointName: 'quoteReturn',
      queryCacheKey: 'quoteReturn(…)',
      originalArgs: { body: { items: [] }, current },
    },
  },
})

/** Each row: a state, an action, and the state the slice makes of them. */
const TRANSITIONS: [string, ReturnFlowState, UnknownAction, ReturnFlowState][] = [
  [
    'portalOpened starts a new session with its launch, forgetting the one before',
    submittedFlow(),
    portalOpened({ lang: null, testMode: false, configOverride: 'e30' }),
    { ...initialState, launch: { lang: null, testMode: false, configOverride: 'e30' } },
  ],
  [
    'supportSessionOpened takes the shopper’s state, read-only and without their submit key',
    initialState,
    supportSessionOpened(submittedFlow()),
    { ...submittedFlow(), idempotencyKey: null, readOnly: true },
  ],
  [
    'orderVerified keeps only the launch and holds the order',
    submittedFlow(),
    orderVerified(anotherOrder),
    { ...initialState, launch, order: anotherOrder },
  ],
  [
    'itemsChosen keeps what was said about an item still chosen, adds the new one, and forgets upsell and method',
    submittedFlow({
      items: [teeItem({ reason: { id: 'too_small', comment: '' }, exchange: { kind: 'refund' } })],
      upsell: { kind: 'declined' },
    }),
    itemsChosen([
      { lineItemId: 'mug', quantity: 1 },
      { lineItemId: 'tee', quantity: 1 },
    ]),
    submittedFlow({
      items: [
        teeItem({ quantity: 1, reason: { id: 'too_small', comment: '' }, exchange: { kind: 'refund' } }),
        { lineItemId: 'mug', quantity: 1, reason: null, exchange: null },
      ],
      upsell: null,
      refundMethod: null,
      ...stale,
    }),
  ],
  [
    'itemsChosen drops quantities below one or above what can be returned, and lines not in the order',
    submittedFlow(),
    itemsChosen([
      { lineItemId: 'tee', quantity: 3 },
      { lineItemId: 'mug', quantity: 0 },
      { lineItemId: 'cap', quantity: 1 },
    ]),
    submittedFlow({ items: [], refundMethod: null, ...stale }),
  ],
  [
    'itemsChosen without an order changes nothing',
    initialState,
    itemsChosen([{ lineItemId: 'tee', quantity: 1 }]),
    initialState,
  ],
  [
    'reasonGiven sets the item’s reason with its photos',
    submittedFlow(),
    reasonGiven({ lineItemId: 'tee', reasonId: 'damaged', comment: 'Torn', photoIds: ['photo-1'] }),
    submittedFlow({
      items: [teeItem({ reason: { id: 'damaged', comment: 'Torn', photoIds: ['photo-1'] } })],
      ...stale,
    }),
  ],
  [
    'reasonGiven with no photos keeps no photo list',
    submittedFlow(),
    reasonGiven({ lineItemId: 'tee', reasonId: 'too_small', comment: '', photoIds: [] }),
    submittedFlow({ items: [teeItem({ reason: { id: 'too_small', comment: '' } })], ...stale }),
  ],
  [
    'reasonGiven for an item not chosen changes nothing',
    submittedFlow(),
    reasonGiven({ lineItemId: 'mug', reasonId: 'too_small', comment: '' }),
    submittedFlow(),
  ],
  [
    'reasonPhotoAdded keeps an uploaded photo after those before it',
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: 'Torn', photoIds: ['photo-1'] } })] }),
    reasonPhotoAdded({ lineItemId: 'tee', photoId: 'photo-2' }),
    submittedFlow({
      items: [teeItem({ reason: { id: 'damaged', comment: 'Torn', photoIds: ['photo-1', 'photo-2'] } })],
      ...stale,
    }),
  ],
  [
    'reasonPhotoAdded starts the list of a reason without photos',
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '' } })] }),
    reasonPhotoAdded({ lineItemId: 'tee', photoId: 'photo-1' }),
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['photo-1'] } })], ...stale }),
  ],
  [
    'reasonPhotoAdded of a photo kept already changes nothing',
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['photo-1'] } })] }),
    reasonPhotoAdded({ lineItemId: 'tee', photoId: 'photo-1' }),
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['photo-1'] } })] }),
  ],
  [
    'reasonPhotoAdded for an item with no reason yet changes nothing, the quote included',
    submittedFlow(),
    reasonPhotoAdded({ lineItemId: 'tee', photoId: 'photo-1' }),
    submittedFlow(),
  ],
  [
    'reasonPhotoRemoved takes the photo out and keeps the others in their order',
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['p-1', 'p-2', 'p-3'] } })] }),
    reasonPhotoRemoved({ lineItemId: 'tee', photoId: 'p-2' }),
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['p-1', 'p-3'] } })], ...stale }),
  ],
  [
    'reasonPhotoRemoved of the last photo keeps no photo list',
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['photo-1'] } })] }),
    reasonPhotoRemoved({ lineItemId: 'tee', photoId: 'photo-1' }),
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '' } })], ...stale }),
  ],
  [
    'reasonPhotoRemoved of a photo not kept changes nothing',
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['photo-1'] } })] }),
    reasonPhotoRemoved({ lineItemId: 'tee', photoId: 'photo-9' }),
    submittedFlow({ items: [teeItem({ reason: { id: 'damaged', comment: '', photoIds: ['photo-1'] } })] }),
  ],
  [
    'reasonWithdrawn clears the item’s reason',
    submittedFlow({ items: [teeItem({ reason: { id: 'colour', comment: '' } })] }),
    reasonWithdrawn({ lineItemId: 'tee' }),
    submittedFlow({ items: [teeItem()], ...stale }),
  ],
  [
    'reasonWithdrawn for an item without a reason changes nothing, the quote included',
    submittedFlow(),
    reasonWithdrawn({ lineItemId: 'tee' }),
    submittedFlow(),
  ],
  [
    'exchangeChosen sets an offered variant',
    submittedFlow(),
    exchangeChosen({ lineItemId: 'tee', variantId: 'tee-l' }),
    submittedFlow({ items: [teeItem({ exchange: { kind: 'exchange', variantId: 'tee-l' } })], ...stale }),
  ],
  [
    'exchangeChosen for a variant not offered changes nothing',
    submittedFlow(),
    exchangeChosen({ lineItemId: 'tee', variantId: 'tee-xl' }),
    submittedFlow(),
  ],
  [
    'exchangeChosen for an item not chosen changes nothing',
    submittedFlow(),
    exchangeChosen({ lineItemId: 'mug', variantId: 'tee-l' }),
    submittedFlow(),
  ],
  [
    'refundPreferred sets a refund for the item',
    submittedFlow({ items: [teeItem({ exchange: { kind: 'exchange', variantId: 'tee-l' } })] }),
    refundPreferred({ lineItemId: 'tee' }),
    submittedFlow({ items: [teeItem({ exchange: { kind: 'refund' } })], ...stale }),
  ],
  [
    'refundPreferred for an item not chosen changes nothing',
    submittedFlow(),
    refundPreferred({ lineItemId: 'mug' }),
    submittedFlow(),
  ],
  [
    'upsellAccepted accepts the offer with no replacement yet',
    submittedFlow(),
    upsellAccepted(),
    submittedFlow({ upsell: { kind: 'accepted', variantId: null }, ...stale }),
  ],
  [
    'upsellAccepted again keeps the replacement picked',
    submittedFlow({ upsell: { kind: 'accepted', variantId: 'hoodie-m' } }),
    upsellAccepted(),
    submittedFlow({ upsell: { kind: 'accepted', variantId: 'hoodie-m' } }),
  ],
  [
    'upsellDeclined declines the offer',
    submittedFlow({ upsell: { kind: 'accepted', variantId: 'hoodie-m' } }),
    upsellDeclined(),
    submittedFlow({ upsell: { kind: 'declined' }, ...stale }),
  ],
  [
    'upsellVariantChosen accepts the offer with the replacement',
    submittedFlow({ upsell: { kind: 'accepted', variantId: null } }),
    upsellVariantChosen({ variantId: 'hoodie-m' }),
    submittedFlow({ upsell: { kind: 'accepted', variantId: 'hoodie-m' }, ...stale }),
  ],
  [
    'refundMethodChosen sets the method',
    submittedFlow(),
    refundMethodChosen('original_payment'),
    submittedFlow({ refundMethod: 'original_payment', ...stale }),
  ],
  [
    'a fulfilled quote of the current choices is the flow’s quote; the submit key and the return stay',
    submittedFlow({ quote: null }),
    quoteFulfilled(buildQuote('11.06'), true),
    submittedFlow({ quote: buildQuote('11.06') }),
  ],
  [
    'a fulfilled quote of other choices (a screen’s own) leaves the flow as it was',
    submittedFlow(),
    quoteFulfilled(buildQuote('99.00'), false),
    submittedFlow(),
  ],
  [
    'sessionExpired marks the session expired and keeps every choice',
    submittedFlow(),
    sessionExpired(),
    { ...submittedFlow(), expired: true },
  ],
  [
    'submitStarted takes the key when there is none',
    submittedFlow({ idempotencyKey: null, submitted: null }),
    submitStarted({ idempotencyKey: 'key-2' }),
    submittedFlow({ idempotencyKey: 'key-2', submitted: null }),
  ],
  [
    'submitStarted keeps the key it has, so that a retry is the same return',
    submittedFlow(),
    submitStarted({ idempotencyKey: 'key-2' }),
    submittedFlow(),
  ],
  [
    'submitStarted in a read-only session takes no key',
    submittedFlow({ idempotencyKey: null, readOnly: true }),
    submitStarted({ idempotencyKey: 'key-2' }),
    submittedFlow({ idempotencyKey: null, readOnly: true }),
  ],
  [
    'returnSubmitted holds the created return',
    submittedFlow({ submitted: null }),
    returnSubmitted(buildSubmittedReturn({ id: 'return-2' })),
    submittedFlow({ submitted: buildSubmittedReturn({ id: 'return-2' }) }),
  ],
]

test.each(TRANSITIONS)('%s', (_name, before, action, after) => {
  expect(returnFlowSlice.reducer(before, action)).toStrictEqual(after)
})

test('the table has a row for every action the slice handles', () => {
  const covered = new Set(TRANSITIONS.map(([, , action]) => action.type))
  for (const action of Object.values(returnFlowSlice.actions))
    expect([action.type, covered.has(action.type)]).toEqual([action.type, true])
})
