import { itemStates } from '../../contract/constants'
import type {
  Catalogue,
  CatalogueProduct,
  LineItem,
  MoneyBag,
  PortalConfig,
  ReturnInstructions,
  ReturnOrder,
  ReturnStatus,
  ReturnStatusItem,
  SupportToken,
  Variant,
  VerifiedOrder,
} from '../../contract/api'
import { initialState, type ReturnFlowState } from '../features/returnFlow/returnFlowSlice'

let sequence = 0
const next = () => String(++sequence)

export function money(amount: string, currency_code = 'EUR'): MoneyBag {
  return { shop_money: { amount, currency_code }, presentment_money: { amount, currency_code } }
}

export function buildConfig(overrides: Partial<PortalConfig> = {}): PortalConfig {
  return {
    shop: 'demo-shop',
    portal_id: 'portal-demo',
    document_title_text: 'Demo Store Returns',
    logo_src: '/demo-assets/logo.svg',
    website_url: 'https://shop.example.com',
    start_return_message: 'Start your return',
    order_placeholder_text: 'Order number, e.g. #1001',
    start_return_button_message: 'Start return',
    need_help_message: 'Need help? Write to help@example.com',
    invalid_order_message: 'We could not find that order.',
    order_not_fulfilled_message: 'This order has not shipped yet.',
    order_too_old_message: 'This order is past the return window.',
    order_already_has_return_message: 'This order already has a return.',
    default_error_message: 'We could not start your return.',
    ...overrides,
  }
}

export function buildLineItem(overrides: Partial<LineItem> = {}): LineItem {
  const id = overrides.id ?? `line-${next()}`
  return {
    id,
    variant_id: `variant-${id}`,
    product_src: `https://cdn.example.com/${id}.png`,
    exchange_variant_id: null,
    title: 'Classic Tee',
    variant_title: 'M',
    quantity: 1,
    returnable_quantity: 1,
    price: money('25.00'),
    ineligible_reason: null,
    ...overrides,
  }
}

export function buildOrder(overrides: Partial<VerifiedOrder> = {}): VerifiedOrder {
  return {
    order_id: `order-${next()}`,
    order_name: '#1001',
    processed_at: '2026-11-10T10:00:00.000Z',
    currency_code: 'EUR',
    line_items: [buildLineItem({ title: 'Classic Tee' }), buildLineItem({ title: 'Ceramic Mug', variant_title: null })],
    exchange_data: { options: {}, upsell_enabled: false, variants: {} },
    return_reasons: [{ id: 'too-small', label: 'Too small', comment_required: false }],
    token: 'test-token',
    token_expires_at: '2026-11-10T12:00:00.000Z',
    ...overrides,
  }
}

/** A flow state for preloading the store: a verified order and, optionally, choices. */
export function buildFlow(overrides: Partial<ReturnFlowState> = {}): ReturnFlowState {
  return { ...initialState, order: buildOrder(), ...overrides }
}

/** A variant named in exchange_data (or the catalogue): a Classic Tee size by default. */
export function buildVariant(overrides: Partial<Variant> = {}): Variant {
  const id = overrides.id ?? `variant-${next()}`
  return {
    id,
    product_id: 'product-tee',
    product_title: 'Classic Tee',
    title: 'M',
    options: [{ name: 'Size', value: 'M' }],
    price: money('25.00'),
    image_src: null,
    available: true,
    ...overrides,
  }
}

/** A quote (the stored return order) refunding `refund` to the original payment. */
export function buildQuote(refund = '25.00', overrides: Partial<ReturnOrder> = {}): ReturnOrder {
  const zero = money('0.00')
  return {
    id: null,
    name: null,
    status: 'quote',
    items: [],
    refund_method: null,
    refund_value: money(refund),
    store_credit_value: null,
    breakdown: {
      items_subtotal: money(refund),
      tax: zero,
      return_fee: zero,
      bonus: zero,
      upsell: zero,
      total: money(refund),
    },
    created_at: null,
    ...overrides,
  }
}

/** A catalogue product for upsell exploration, with its variants (one Size M by default). */
export function buildProduct(overrides: Partial<CatalogueProduct> = {}): CatalogueProduct {
  const id = overrides.id ?? `product-${next()}`
  const title = overrides.title ?? 'Canvas Tote'
  return {
    id,
    title,
    image_src: `https://cdn.example.com/${id}.png`,
    variants: [buildVariant({ product_id: id, product_title: title })],
    ...overrides,
  }
}

export function buildCatalogue(products: CatalogueProduct[] = [buildProduct()]): Catalogue {
  return { products }
}

/** A submitted return order (status 'requested'), as POST /returns answers. */
export function buildSubmittedReturn(overrides: Partial<ReturnOrder> = {}): ReturnOrder {
  return buildQuote('25.00', {
    id: 'return-1',
    name: '#1001-R1',
    status: 'requested',
    created_at: '2026-11-12T10:00:00.000Z',
    ...overrides,
  })
}

/** The instructions of a submitted return: steps, address, an API-relative label and a QR code. */
export function buildInstructions(overrides: Partial<ReturnInstructions> = {}): ReturnInstructions {
  return {
    return_id: 'return-1',
    return_name: '#1001-R1',
    steps: [
      'Pack the items in their original packaging.',
      'Print the label and stick it on the parcel.',
      'Drop the parcel off within 14 days.',
    ],
    address: {
      name: 'Demo Store Returns',
      line1: 'Hafenstraße 12',
      city: 'Hamburg',
      postal_code: '20457',
      country_code: 'DE',
    },
    label_url: '/portal-registration/returns/return-1/label.pdf?signature=abc',
    qr_svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
    qr_code_value: 'RB-1001-R1',
    status_token: 'status-signature-of-return-1-abcdefghij',
    ...overrides,
  }
}

/** An item of a return's status: requested at the return's creation unless given a later history. */
export function buildStatusItem(overrides: Partial<ReturnStatusItem> = {}): ReturnStatusItem {
  return {
    line_item_id: `line-${next()}`,
    title: 'Classic Tee',
    variant_title: 'M',
    quantity: 1,
    image_src: 'https://cdn.example.com/tee.png',
    exchange_variant_title: null,
    keep: false,
    state: 'requested',
    history: [{ state: 'requested', at: '2026-11-12T10:00:00.000Z' }],
    ...overrides,
    // A kept item's states are its two, unless a test says otherwise.
    states: overrides.states ?? [...itemStates(overrides.keep === true)],
  }
}

/** A return's status as GET /returns/{id}/status answers: one item requested, 25.00 to the original payment, the label. */
export function buildReturnStatus(overrides: Partial<ReturnStatus> = {}): ReturnStatus {
  const instructions = buildInstructions()
  return {
    return_id: 'return-1',
    return_name: '#1001-R1',
    created_at: '2026-11-12T10:00:00.000Z',
    items: [buildStatusItem()],
    refund: {
      method: 'original_payment',
      amount: { amount: '25.00', currency_code: 'EUR' },
      timing: null,
      expected: null,
    },
    label: {
      label_url: instructions.label_url,
      qr_svg: instructions.qr_svg,
      qr_code_value: instructions.qr_code_value,
    },
    address: instructions.address,
    ...overrides,
  }
}

/** The read-only token the server gives for `token`: marked so a test can see which token asked. */
export function buildSupportToken(token = 'test-token', overrides: Partial<SupportToken> = {}): SupportToken {
  return {
    token: token.startsWith('read-only.') ? token : `read-only.${token}`,
    token_expires_at: '2026-11-10T12:00:00.000Z',
    ...overrides,
  }
}

/**
 * The API's 422 when another tab already returned the line `lineItemId` (in return #1001-R1,
 * r-7): the refusal the steps name with a link to that return (decision 0065).
 */
export function returnedElsewhere(lineItemId: string) {
  return {
    error: 'invalid_return',
    message: 'items[0].line_item_id: this item can no longer be returned',
    problems: [
      { field: 'items[0].line_item_id', problem: 'not_returnable', message: 'this item can no longer be returned' },
    ],
    returns: [{ id: 'r-7', name: '#1001-R1', status_token: 'sig', line_item_ids: [lineItemId] }],
  }
}
