import type { LineItem, ReturnOrder, VerifiedOrder } from '../../contract/api'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildQuote, buildVariant, money } from './builders'

/**
 * The demo shop's #1001 as the Portal API answers it (server/demo/demo.json): a tee bought twice,
 * exchangeable M → S/L/XL (XL out of stock), a mug, a final-sale shirt, the shop's six reasons.
 */
export function buildOrder1001(overrides: Partial<VerifiedOrder> = {}): VerifiedOrder {
  const size = (title: string, available = true) =>
    buildVariant({
      id: `classic-tee-${title.toLowerCase()}`,
      product_id: 'classic-tee',
      title,
      options: [{ name: 'Size', value: title }],
      image_src: '/demo-assets/tee-white.svg',
      available,
    })
  const sizes = [size('S'), size('M'), size('L'), size('XL', false)]
  return buildOrder({
    order_id: '43293b6a-a719-46a6-ad98-5fb3191f9f61',
    order_name: '#1001',
    processed_at: '2026-11-13T12:00:00.000Z',
    line_items: [
      buildLineItem({
        id: 'li-1001-001',
        variant_id: 'classic-tee-m',
        product_src: '/demo-assets/tee-white.svg',
        title: 'Classic Tee',
        variant_title: 'M',
        quantity: 2,
        returnable_quantity: 2,
      }),
      buildLineItem({
        id: 'li-1001-002',
        variant_id: 'ceramic-mug-default',
        product_src: '/demo-assets/mug.svg',
        title: 'Ceramic Mug',
        variant_title: '',
        price: money('14.00'),
      }),
      buildLineItem({
        id: 'li-1001-003',
        variant_id: 'linen-shirt-m',
        product_src: '/demo-assets/linen-shirt.svg',
        title: 'Linen Shirt',
        price: money('49.00'),
        returnable_quantity: 0,
        ineligible_reason: 'final_sale',
      }),
    ],
    exchange_data: {
      options: { 'classic-tee-m': sizes.map((variant) => variant.id) },
      upsell_enabled: true,
      variants: Object.fromEntries(sizes.map((variant) => [variant.id, variant])),
    },
    return_reasons: [
      { id: 'too_small', label: 'Too small', comment_required: false },
      { id: 'too_large', label: 'Too large', comment_required: false },
      { id: 'not_as_described', label: 'Not as described', comment_required: false },
      { id: 'changed_mind', label: 'Changed my mind', comment_required: false },
      { id: 'damaged', label: 'Arrived damaged', comment_required: true },
      { id: 'other', label: 'Other reason', comment_required: true },
    ],
    // A real token's shape and length: base64url claims, a dot, an HMAC-SHA256.
    token:
      'eyJvIjoiNDMyOTNiNmEtYTcxOS00NmE2LWFkOTgtNWZiMzE5MWY5ZjYxIiwicyI6ImRlbW8iLCJlIjoxNzk1MTgzMjAwfQ.PEEVhJZR_kaKm6yXfi0VBRwOTJloYriT0d7e7r5XHqE',
    token_expires_at: '2026-11-20T14:00:00.000Z',
    ...overrides,
  })
}

/** The server's quote for one tee exchanged for L and the damaged mug refunded as store credit. */
export function buildQuote1001(comment: string): ReturnOrder {
  const item = (line: Pick<LineItem, 'id' | 'title' | 'variant_title'>) => ({
    line_item_id: line.id,
    title: line.title,
    variant_title: line.variant_title,
    quantity: 1,
  })
  return buildQuote('10.05', {
    items: [
      {
        ...item({ id: 'li-1001-001', title: 'Classic Tee', variant_title: 'M' }),
        reason_id: 'too_small',
        reason_label: 'Too small',
        comment: null,
        exchange_variant_id: 'classic-tee-l',
        exchange_variant_title: 'L',
      },
      {
        ...item({ id: 'li-1001-002', title: 'Ceramic Mug', variant_title: '' }),
        reason_id: 'damaged',
        reason_label: 'Arrived damaged',
        comment,
        exchange_variant_id: null,
        exchange_variant_title: null,
      },
    ],
    refund_method: 'store_credit',
    store_credit_value: money('11.06'),
    breakdown: {
      items_subtotal: money('11.76'),
      tax: money('2.24'),
      return_fee: money('3.95'),
      bonus: money('1.01'),
      upsell: money('0.00'),
      total: money('11.06'),
    },
  })
}

/**
 * #1001 on the confirm step, in German: the tee exchanged for L, the mug damaged (its comment
 * names the shopper's e-mail), store credit chosen, quoted, and a submit key already made.
 */
export function buildFlow1001AtConfirm(overrides: Partial<ReturnFlowState> = {}): ReturnFlowState {
  const comment = 'Handle chipped, photos sent from jane@example.com'
  return buildFlow({
    launch: { lang: 'de', testMode: false, configOverride: null },
    order: buildOrder1001(),
    items: [
      {
        lineItemId: 'li-1001-001',
        quantity: 1,
        reason: { id: 'too_small', comment: '' },
        exchange: { kind: 'exchange', variantId: 'classic-tee-l' },
      },
      { lineItemId: 'li-1001-002', quantity: 1, reason: { id: 'damaged', comment }, exchange: null },
    ],
    upsell: { kind: 'declined' },
    refundMethod: 'store_credit',
    quote: buildQuote1001(comment),
    idempotencyKey: 'submit-key-7f3k9q2m',
    ...overrides,
  })
}
