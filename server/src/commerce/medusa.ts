import { fromMinor, minorDigits, type Minor } from '../../../contract/money'

/**
 * The Medusa v2 Admin API, as Rebound calls it (docs/medusa.md, docs/decisions/0073-medusa-admin-api.md):
 * with the shop's secret API key, every call bounded by a timeout, amounts in minor units on our
 * side and Medusa's major units on the wire (converted in `toMedusa` and `fromMedusa` alone), and
 * each action marked with its key in Medusa so that a retry can read whether it was already done.
 */

export type MedusaErrorKind = 'unreachable' | 'timeout' | 'refused' | 'failed'

/**
 * A call that did not succeed: `unreachable` (no connection), `timeout` (no answer in time),
 * `refused` (a 4xx, with Medusa's message), `failed` (a 5xx). Its text never holds the key.
 */
export class MedusaError extends Error {
  constructor(
    readonly kind: MedusaErrorKind,
    /** `POST /admin/returns`: the call, without its query or body */
    readonly call: string,
    readonly status?: number,
    /** Medusa's own message for a 4xx or 5xx */
    readonly medusaMessage?: string,
  ) {
    super(
      `Medusa ${call}: ${kind}${status === undefined ? '' : ` (${status})`}${medusaMessage ? `: ${medusaMessage}` : ''}`,
    )
    this.name = 'MedusaError'
  }
}

export interface MedusaOptions {
  /** the Medusa server's base URL, e.g. https://shop.example/ (its API lives under /admin) */
  url: string
  /** a secret API key (sk_…), sent as HTTP Basic credentials */
  secretApiKey: string
  /** the sales channel and the stock location the shop named, checked by testConnection */
  salesChannelId?: string
  stockLocationId?: string
  /** the limit of each call; 5 s by default */
  timeoutMs?: number
}

/** The metadata key that carries Rebound's action key on what an action makes in Medusa. */
export const ACTION_KEY = 'rebound_action'

/** Minor units as Medusa's major units: 2550 EUR → 25.5, 1200 JPY → 1200. */
export function toMedusa(minor: Minor, currency: string): number {
  return Number(fromMinor(minor, currency.toUpperCase()))
}

/** Medusa's major units (a number or a decimal string) as minor units, to the nearest one. */
export function fromMedusa(major: number | string | null | undefined, currency: string): Minor {
  const value = Number(major ?? 0)
  if (!Number.isFinite(value)) throw new RangeError(`not an amount: ${String(major)}`)
  const minor = Math.round(value * 10 ** minorDigits(currency.toUpperCase()))
  return Object.is(minor, -0) ? 0 : minor
}

export interface ConnectionCheck {
  /** an answer came back from the server */
  reachable: boolean
  /** the Admin API accepted the secret key */
  keyAccepted: boolean
  /** null when no id was given to check */
  salesChannelFound: boolean | null
  stockLocationFound: boolean | null
  /** what went wrong first, for the shop's settings screen */
  error?: string
  /** the kind and HTTP status of that first failure */
  failure?: { kind: MedusaErrorKind; status?: number }
}

export interface MedusaOrderItem {
  id: string
  variantId: string | null
  productId: string | null
  title: string
  /** the product's title, when the item is of one */
  productTitle: string | null
  variantTitle: string | null
  thumbnail: string | null
  quantity: number
  /** the units fulfilled so far */
  fulfilledQuantity: number
  unitPriceMinor: Minor
  /** whether the unit price includes the tax */
  taxInclusive: boolean
  /** the item's tax rates added up, in percent as Medusa gives them: 19 */
  taxRatePercent: number
  /** what promotions took off the whole item (its adjustments), in the terms of its price */
  discountMinor: Minor
}

export interface MedusaFulfillment {
  id: string
  createdAt: string
  shippedAt: string | null
  canceledAt: string | null
}

export interface MedusaAddress {
  firstName: string | null
  lastName: string | null
  company: string | null
  address1: string | null
  address2: string | null
  city: string | null
  province: string | null
  postalCode: string | null
  /** lower case, as Medusa keeps it: de */
  countryCode: string | null
}

/** A variant of a product with its price in one currency and whether it can be sold now. */
export interface MedusaVariant {
  id: string
  title: string | null
  options: { name: string; value: string }[]
  /** the price without rules in the asked currency, null when it has none */
  priceMinor: Minor | null
  /** in stock somewhere, or its inventory not managed, or backorders allowed */
  available: boolean
  thumbnail: string | null
}

export interface MedusaPayment {
  id: string
  amountMinor: Minor
  capturedMinor: Minor
  refundedMinor: Minor
}

export interface MedusaOrder {
  id: string
  displayId: number
  email: string
  currency: string
  items: MedusaOrderItem[]
  payments: MedusaPayment[]
  /** Medusa's fulfillment_status: not_fulfilled, fulfilled, shipped, delivered, partially_… */
  fulfillmentStatus: string
  createdAt: string
  fulfillments: MedusaFulfillment[]
  shippingAddress: MedusaAddress | null
}

export interface MedusaRefund {
  id: string
  paymentId: string
  amountMinor: Minor
  note: string | null
}

export interface MedusaReturn {
  id: string
  orderId: string
  /** open (not yet requested), requested, received, partially_received, canceled */
  status: string
  exchangeId: string | null
}

export interface MedusaExchange {
  id: string
  orderId: string
  returnId: string | null
  canceled: boolean
}

export interface MedusaPromotion {
  id: string
  code: string
  status: string
  limit: number | null
  used: number
  /** the action key it was made with, if Rebound made it */
  actionKey: string | null
}

interface RawOrder {
  id: string
  display_id: number
  email: string | null
  currency_code: string
  fulfillment_status: string
  created_at: string
  items?: {
    id: string
    variant_id: string | null
    product_id?: string | null
    title: string
    product_title?: string | null
    variant_title?: string | null
    thumbnail?: string | null
    quantity: number
    unit_price: number
    is_tax_inclusive?: boolean
    tax_lines?: { rate: number | string }[]
    adjustments?: { amount: number | string }[]
    detail?: { fulfilled_quantity?: number | string } | null
  }[]
  fulfillments?: { id: string; created_at: string; shipped_at?: string | null; canceled_at?: string | null }[]
  shipping_address?: {
    first_name?: string | null
    last_name?: string | null
    company?: string | null
    address_1?: string | null
    address_2?: string | null
    city?: string | null
    province?: string | null
    postal_code?: string | null
    country_code?: string | null
  } | null
  payment_collections?: {
    payments?: {
      id: string
      amount: number
      captures?: { amount: number }[]
      refunds?: { id: string; amount: number; note: string | null }[]
    }[]
  }[]
}

interface RawReturn {
  id: string
  order_id: string
  status: string
  exchange_id?: string | null
  metadata?: Record<string, unknown> | null
}

interface RawExchange {
  id: string
  order_id: string
  return_id?: string | null
  canceled_at?: string | null
  metadata?: Record<string, unknown> | null
}

interface RawPromotion {
  id: string
  code: string
  status: string
  limit?: number | null
  used?: number | null
  metadata?: Record<string, unknown> | null
}

const ORDER_FIELDS = [
  'id',
  'display_id',
  'email',
  'currency_code',
  'fulfillment_status',
  'created_at',
  '*items',
  '*items.tax_lines',
  '*items.adjustments',
  '*items.detail',
  '*fulfillments',
  '*shipping_address',
  '*payment_collections.payments',
  '*payment_collections.payments.captures',
  '*payment_collections.payments.refunds',
].join(',')
const RETURN_FIELDS = 'id,order_id,status,exchange_id,metadata'
const EXCHANGE_FIELDS = 'id,order_id,return_id,canceled_at,metadata'
const PROMOTION_FIELDS = 'id,code,status,limit,used,metadata'
const VARIANT_FIELDS = [
  'id',
  'title',
  'thumbnail',
  'manage_inventory',
  'allow_backorder',
  // Medusa adds the variant's stock over all locations when asked for exactly this field.
  'inventory_quantity',
  '*options',
  '*options.option',
  '*prices',
].join(',')

interface RawVariant {
  id: string
  title: string | null
  thumbnail?: string | null
  manage_inventory?: boolean
  allow_backorder?: boolean
  inventory_quantity?: number | null
  options?: { value: string; option?: { title: string } | null }[]
  prices?: { amount: number | string; currency_code: string; rules?: Record<string, unknown> | null }[]
}

/** The abort of `AbortSignal.timeout` (a DOMException, not always an `Error` of this realm). */
function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name
  return name === 'TimeoutError' || name === 'AbortError'
}

/** The note of a refund that carries an action key: Medusa keeps no metadata on refunds. */
const refundMarker = (key: string) => `[${ACTION_KEY}:${key}]`

export function medusaClient(options: MedusaOptions) {
  const base = options.url.replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? 5000
  const authorization = `Basic ${Buffer.from(`${options.secretApiKey}:`).toString('base64')}`

  /** One call, bounded by the client's timeout and, when given, by `signal` (a caller's deadline). */
  async function call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    const name = `${method} ${path.split('?')[0]}`
    let answer: Response
    try {
      answer = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]) : AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      const timedOut = isTimeout(error)
      throw new MedusaError(timedOut ? 'timeout' : 'unreachable', name)
    }
    let text: string
    try {
      text = await answer.text()
    } catch (error) {
      const timedOut = isTimeout(error)
      throw new MedusaError(timedOut ? 'timeout' : 'unreachable', name, answer.status)
    }
    if (!answer.ok) {
      let message: string | undefined
      try {
        message = (JSON.parse(text) as { message?: string }).message
      } catch {
        message = undefined
      }
      throw new MedusaError(answer.status < 500 ? 'refused' : 'failed', name, answer.status, message?.slice(0, 500))
    }
    return (text ? JSON.parse(text) : {}) as T
  }

  const query = (params: Record<string, string | number>) =>
    new URLSearchParams(
      Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString()

  function toOrder(raw: RawOrder): MedusaOrder {
    const currency = raw.currency_code
    const sum = (amounts: { amount: number }[] | undefined) =>
      (amounts ?? []).reduce((total, part) => total + fromMedusa(part.amount, currency), 0)
    return {
      id: raw.id,
      displayId: raw.display_id,
      email: raw.email ?? '',
      currency: currency.toUpperCase(),
      items: (raw.items ?? []).map((item) => ({
        id: item.id,
        variantId: item.variant_id,
        productId: item.product_id ?? null,
        title: item.title,
        productTitle: item.product_title ?? null,
        variantTitle: item.variant_title ?? null,
        thumbnail: item.thumbnail ?? null,
        quantity: Number(item.quantity),
        fulfilledQuantity: Number(item.detail?.fulfilled_quantity ?? 0),
        unitPriceMinor: fromMedusa(item.unit_price, currency),
        taxInclusive: item.is_tax_inclusive === true,
        taxRatePercent: (item.tax_lines ?? []).reduce((total, line) => total + Number(line.rate), 0),
        discountMinor: sum((item.adjustments ?? []).map((adjustment) => ({ amount: Number(adjustment.amount) }))),
      })),
      payments: (raw.payment_collections ?? []).flatMap((collection) =>
        (collection.payments ?? []).map((payment) => ({
          id: payment.id,
          amountMinor: fromMedusa(payment.amount, currency),
          capturedMinor: sum(payment.captures),
          refundedMinor: sum(payment.refunds),
        })),
      ),
      fulfillmentStatus: raw.fulfillment_status,
      createdAt: raw.created_at,
      fulfillments: (raw.fulfillments ?? []).map((fulfillment) => ({
        id: fulfillment.id,
        createdAt: fulfillment.created_at,
        shippedAt: fulfillment.shipped_at ?? null,
        canceledAt: fulfillment.canceled_at ?? null,
      })),
      shippingAddress: raw.shipping_address
        ? {
            firstName: raw.shipping_address.first_name ?? null,
            lastName: raw.shipping_address.last_name ?? null,
            company: raw.shipping_address.company ?? null,
            address1: raw.shipping_address.address_1 ?? null,
            address2: raw.shipping_address.address_2 ?? null,
            city: raw.shipping_address.city ?? null,
            province: raw.shipping_address.province ?? null,
            postalCode: raw.shipping_address.postal_code ?? null,
            countryCode: raw.shipping_address.country_code ?? null,
          }
        : null,
    }
  }

  function toVariant(raw: RawVariant, currency: string): MedusaVariant {
    const wanted = currency.toLowerCase()
    const price = (raw.prices ?? []).find(
      (candidate) =>
        candidate.currency_code.toLowerCase() === wanted && Object.keys(candidate.rules ?? {}).length === 0,
    )
    return {
      id: raw.id,
      title: raw.title,
      options: (raw.options ?? []).flatMap((value) =>
        value.option ? [{ name: value.option.title, value: value.value }] : [],
      ),
      priceMinor: price ? fromMedusa(price.amount, currency) : null,
      available:
        raw.manage_inventory === false || raw.allow_backorder === true || Number(raw.inventory_quantity ?? 0) > 0,
      thumbnail: raw.thumbnail ?? null,
    }
  }

  async function orderById(orderId: string): Promise<RawOrder> {
    const { order } = await call<{ order: RawOrder }>(
      'GET',
      `/admin/orders/${encodeURIComponent(orderId)}?${query({ fields: ORDER_FIELDS })}`,
    )
    return order
  }

  const toReturn = (raw: RawReturn): MedusaReturn => ({
    id: raw.id,
    orderId: raw.order_id,
    status: raw.status,
    exchangeId: raw.exchange_id ?? null,
  })

  const toExchange = (raw: RawExchange): MedusaExchange => ({
    id: raw.id,
    orderId: raw.order_id,
    returnId: raw.return_id ?? null,
    canceled: Boolean(raw.canceled_at),
  })

  const toPromotion = (raw: RawPromotion): MedusaPromotion => ({
    id: raw.id,
    code: raw.code,
    status: raw.status,
    limit: raw.limit ?? null,
    used: Number(raw.used ?? 0),
    actionKey: typeof raw.metadata?.[ACTION_KEY] === 'string' ? raw.metadata[ACTION_KEY] : null,
  })

  const client = {
    /** What works: the server answers, the key is accepted, the named sales channel and stock location exist. */
    async testConnection(): Promise<ConnectionCheck> {
      const check: ConnectionCheck = {
        reachable: false,
        keyAccepted: false,
        salesChannelFound: null,
        stockLocationFound: null,
      }
      try {
        await call('GET', `/admin/stores?${query({ fields: 'id', limit: 1 })}`)
        check.reachable = true
        check.keyAccepted = true
      } catch (error) {
        if (!(error instanceof MedusaError)) throw error
        check.reachable = error.status !== undefined
        check.error = error.message
        check.failure = { kind: error.kind, ...(error.status === undefined ? {} : { status: error.status }) }
        return check
      }
      const found = async (path: string): Promise<boolean> => {
        try {
          await call('GET', `${path}?${query({ fields: 'id' })}`)
          return true
        } catch (error) {
          if (error instanceof MedusaError && error.status === 404) return false
          throw error
        }
      }
      try {
        if (options.salesChannelId)
          check.salesChannelFound = await found(`/admin/sales-channels/${encodeURIComponent(options.salesChannelId)}`)
        if (options.stockLocationId)
          check.stockLocationFound = await found(
            `/admin/stock-locations/${encodeURIComponent(options.stockLocationId)}`,
          )
      } catch (error) {
        if (!(error instanceof MedusaError)) throw error
        check.error = error.message
        check.failure = { kind: error.kind, ...(error.status === undefined ? {} : { status: error.status }) }
      }
      return check
    },

    /**
     * The order with this display id whose e-mail is `email` (compared without case), or null.
     * Medusa's order list has no display_id filter: its search `q` finds the e-mail's orders.
     * `signal` ends the search at a caller's deadline (verify's).
     */
    async findOrder(
      displayId: number,
      email: string,
      options: { signal?: AbortSignal } = {},
    ): Promise<MedusaOrder | null> {
      const wanted = email.trim().toLowerCase()
      const limit = 50
      for (let offset = 0; ; offset += limit) {
        const page = await call<{ orders: RawOrder[]; count: number }>(
          'GET',
          `/admin/orders?${query({ q: wanted, fields: ORDER_FIELDS, limit, offset, order: '-created_at' })}`,
          undefined,
          options.signal,
        )
        const order = page.orders.find(
          (candidate) => candidate.display_id === displayId && candidate.email?.toLowerCase() === wanted,
        )
        if (order) return toOrder(order)
        if (offset + limit >= page.count || page.orders.length === 0) return null
      }
    },

    async getOrder(orderId: string): Promise<MedusaOrder> {
      return toOrder(await orderById(orderId))
    },

    /** The variants of a product, each with its price in `currency` and whether it can be sold now. */
    async productVariants(
      productId: string,
      currency: string,
      options: { signal?: AbortSignal } = {},
    ): Promise<MedusaVariant[]> {
      const { variants } = await call<{ variants: RawVariant[] }>(
        'GET',
        `/admin/products/${encodeURIComponent(productId)}/variants?${query({ fields: VARIANT_FIELDS, limit: 250 })}`,
        undefined,
        options.signal,
      )
      return variants.map((variant) => toVariant(variant, currency))
    },

    /** The returns of this order that carry `key`: one, and a canceled one a failed attempt left. */
    async returnsFor(orderId: string, key: string): Promise<MedusaReturn[]> {
      const { returns } = await call<{ returns: RawReturn[] }>(
        'GET',
        `/admin/returns?${query({ order_id: orderId, fields: RETURN_FIELDS, limit: 100 })}`,
      )
      return returns.filter((candidate) => candidate.metadata?.[ACTION_KEY] === key).map(toReturn)
    },

    /** The return of this order that carries `key` (protects requestReturn), one not canceled first, or null. */
    async findReturnFor(orderId: string, key: string): Promise<MedusaReturn | null> {
      const marked = await client.returnsFor(orderId, key)
      return marked.find((found) => found.status !== 'canceled') ?? marked[0] ?? null
    },

    async getReturn(returnId: string): Promise<MedusaReturn> {
      const answer = await call<{ return: RawReturn }>(
        'GET',
        `/admin/returns/${encodeURIComponent(returnId)}?${query({ fields: RETURN_FIELDS })}`,
      )
      return toReturn(answer.return)
    },

    /**
     * Requests a return of these order items (Medusa: begin a return, add its items, confirm the
     * request), marked with `key`. A retry finds the requested return and makes no other; a return
     * a failed attempt left open (not requested) is canceled and made again.
     */
    async requestReturn(input: {
      orderId: string
      items: { lineItemId: string; quantity: number }[]
      reasonNote?: string
      key: string
      locationId?: string
    }): Promise<{ returnId: string; alreadyDone: boolean }> {
      const existing = await client.findReturnFor(input.orderId, input.key)
      if (existing && existing.status !== 'open' && existing.status !== 'canceled')
        return { returnId: existing.id, alreadyDone: true }
      if (existing?.status === 'open') await call('DELETE', `/admin/returns/${existing.id}/request`)
      const locationId = input.locationId ?? options.stockLocationId
      const begun = await call<{ return: RawReturn }>('POST', `/admin/returns?${query({ fields: RETURN_FIELDS })}`, {
        order_id: input.orderId,
        ...(locationId ? { location_id: locationId } : {}),
        ...(input.reasonNote ? { description: input.reasonNote } : {}),
        metadata: { [ACTION_KEY]: input.key },
      })
      const returnId = begun.return.id
      await call('POST', `/admin/returns/${returnId}/request-items`, {
        items: input.items.map((item) => ({
          id: item.lineItemId,
          quantity: item.quantity,
          ...(input.reasonNote ? { internal_note: input.reasonNote } : {}),
        })),
      })
      await call('POST', `/admin/returns/${returnId}/request`, {})
      return { returnId, alreadyDone: false }
    },

    /**
     * Receives a requested return: a restocked item is received (Medusa raises the variant's
     * stocked quantity at the return's location), another is dismissed as damaged (no stock).
     * A return already received is left as it is (the return's status protects this action).
     */
    async receiveReturn(input: {
      returnId: string
      items: { lineItemId: string; quantity: number; restock: boolean }[]
    }): Promise<{ alreadyDone: boolean }> {
      const current = await client.getReturn(input.returnId)
      if (current.status === 'received' || current.status === 'partially_received') return { alreadyDone: true }
      const path = `/admin/returns/${encodeURIComponent(input.returnId)}`
      try {
        await call('POST', `${path}/receive`, {})
      } catch (error) {
        // A receipt a failed attempt left open: canceled, then begun again.
        if (!(error instanceof MedusaError) || error.kind !== 'refused') throw error
        await call('DELETE', `${path}/receive`)
        await call('POST', `${path}/receive`, {})
      }
      const lines = (restock: boolean) =>
        input.items
          .filter((item) => item.restock === restock && item.quantity > 0)
          .map((item) => ({ id: item.lineItemId, quantity: item.quantity }))
      const restocked = lines(true)
      const dismissed = lines(false)
      if (restocked.length) await call('POST', `${path}/receive-items`, { items: restocked })
      if (dismissed.length) await call('POST', `${path}/dismiss-items`, { items: dismissed })
      await call('POST', `${path}/receive/confirm`, {})
      return { alreadyDone: false }
    },

    /**
     * Cancels the returns of this order that carry `key` (`POST /admin/returns/:id/cancel`; one a
     * failed attempt left open, never requested, has its request canceled). A return already
     * canceled, or none at all (its request never reached Medusa), leaves nothing to do. Medusa
     * refuses to cancel a return with received items.
     */
    async cancelReturn(input: {
      orderId: string
      key: string
    }): Promise<{ returnId: string | null; alreadyDone: boolean }> {
      const marked = await client.returnsFor(input.orderId, input.key)
      const live = marked.filter((found) => found.status !== 'canceled')
      for (const found of live) {
        const path = `/admin/returns/${encodeURIComponent(found.id)}`
        if (found.status === 'open') await call('DELETE', `${path}/request`)
        else await call('POST', `${path}/cancel`, {})
      }
      return { returnId: (live.at(-1) ?? marked.at(-1))?.id ?? null, alreadyDone: live.length === 0 }
    },

    /** The refunds of an order's payments (their notes carry the action keys). */
    async refundsOf(orderId: string): Promise<MedusaRefund[]> {
      const order = await orderById(orderId)
      return (order.payment_collections ?? []).flatMap((collection) =>
        (collection.payments ?? []).flatMap((payment) =>
          (payment.refunds ?? []).map((refund) => ({
            id: refund.id,
            paymentId: payment.id,
            amountMinor: fromMedusa(refund.amount, order.currency_code),
            note: refund.note,
          })),
        ),
      )
    },

    /**
     * Refunds exactly `amountMinor` of the order's captured payment, marked with `key` in the
     * refund's note. A retry finds the refund by that mark and refunds nothing more. With a
     * `paymentId`, Medusa itself refuses more than that payment has left.
     */
    async refundPayment(input: {
      orderId: string
      /** this payment of the order; by default the first captured one with enough left */
      paymentId?: string
      amountMinor: Minor
      note?: string
      key: string
    }): Promise<{ refundId: string; paymentId: string; alreadyDone: boolean }> {
      if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
        throw new RangeError(`a refund is a positive integer of minor units: ${input.amountMinor}`)
      const raw = await orderById(input.orderId)
      const marker = refundMarker(input.key)
      const order = toOrder(raw)
      for (const payment of raw.payment_collections?.flatMap((collection) => collection.payments ?? []) ?? []) {
        const done = payment.refunds?.find((refund) => refund.note?.includes(marker))
        if (done) return { refundId: done.id, paymentId: payment.id, alreadyDone: true }
      }
      const payment = input.paymentId
        ? order.payments.find((one) => one.id === input.paymentId)
        : order.payments.find((one) => one.capturedMinor - one.refundedMinor >= input.amountMinor)
      if (!payment)
        throw new MedusaError(
          'refused',
          `POST /admin/payments/:id/refund`,
          undefined,
          input.paymentId
            ? 'the order has no such payment'
            : 'no captured payment of the order has that much left to refund',
        )
      const refunded = await call<{
        payment: { refunds?: { id: string; note: string | null }[] }
      }>('POST', `/admin/payments/${payment.id}/refund?${query({ fields: 'id,*refunds' })}`, {
        amount: toMedusa(input.amountMinor, order.currency),
        note: input.note ? `${input.note} ${marker}` : marker,
      })
      const refund =
        refunded.payment.refunds?.find((one) => one.note?.includes(marker)) ??
        (await client.refundsOf(input.orderId)).find((one) => one.note?.includes(marker))
      if (!refund)
        throw new MedusaError('failed', 'POST /admin/payments/:id/refund', undefined, 'the refund is not found')
      return { refundId: refund.id, paymentId: payment.id, alreadyDone: false }
    },

    /** The promotion with this code (protects createStoreCreditCode), or null. */
    async findPromotionByCode(code: string): Promise<MedusaPromotion | null> {
      const { promotions } = await call<{ promotions: RawPromotion[] }>(
        'GET',
        `/admin/promotions?${query({ code, fields: PROMOTION_FIELDS })}`,
      )
      const found = promotions.find((promotion) => promotion.code === code)
      return found ? toPromotion(found) : null
    },

    /**
     * Store credit as a code: an active, single-use promotion of a fixed amount off an order in
     * that currency, for that customer's e-mail when one is given. A retry finds the code.
     */
    async createStoreCreditCode(input: {
      code: string
      amountMinor: Minor
      currency: string
      email?: string
      key: string
    }): Promise<{ promotionId: string; alreadyDone: boolean }> {
      const existing = await client.findPromotionByCode(input.code)
      if (existing?.actionKey === input.key) return { promotionId: existing.id, alreadyDone: true }
      if (existing)
        throw new MedusaError('refused', 'POST /admin/promotions', undefined, 'the code is taken by another promotion')
      const currency = input.currency.toLowerCase()
      const { promotion } = await call<{ promotion: RawPromotion }>(
        'POST',
        `/admin/promotions?${query({ fields: PROMOTION_FIELDS })}`,
        {
          code: input.code,
          type: 'standard',
          status: 'active',
          is_automatic: false,
          limit: 1,
          application_method: {
            type: 'fixed',
            target_type: 'order',
            allocation: 'across',
            value: toMedusa(input.amountMinor, currency),
            currency_code: currency,
          },
          rules: [
            { attribute: 'currency_code', operator: 'eq', values: [currency] },
            ...(input.email
              ? [{ attribute: 'customer.email', operator: 'eq', values: [input.email.trim().toLowerCase()] }]
              : []),
          ],
          metadata: { [ACTION_KEY]: input.key },
        },
      )
      return { promotionId: promotion.id, alreadyDone: false }
    },

    /** The exchange of this order that carries `key` (protects createExchange), or null. */
    async findExchangeFor(orderId: string, key: string): Promise<MedusaExchange | null> {
      const { exchanges } = await call<{ exchanges: RawExchange[] }>(
        'GET',
        `/admin/exchanges?${query({ order_id: orderId, fields: EXCHANGE_FIELDS, limit: 100 })}`,
      )
      const found = exchanges.find((candidate) => candidate.metadata?.[ACTION_KEY] === key && !candidate.canceled_at)
      return found ? toExchange(found) : null
    },

    /**
     * An exchange: these items come back, these variants go out (Medusa: begin an exchange, add
     * its inbound and outbound items, confirm the request), marked with `key`.
     */
    async createExchange(input: {
      orderId: string
      returnItems: { lineItemId: string; quantity: number }[]
      newItems: { variantId: string; quantity: number }[]
      key: string
      locationId?: string
    }): Promise<{ exchangeId: string; returnId: string | null; alreadyDone: boolean }> {
      const existing = await client.findExchangeFor(input.orderId, input.key)
      if (existing) return { exchangeId: existing.id, returnId: existing.returnId, alreadyDone: true }
      const { exchange } = await call<{ exchange: RawExchange }>(
        'POST',
        `/admin/exchanges?${query({ fields: EXCHANGE_FIELDS })}`,
        { order_id: input.orderId, metadata: { [ACTION_KEY]: input.key } },
      )
      const path = `/admin/exchanges/${exchange.id}`
      const locationId = input.locationId ?? options.stockLocationId
      await call('POST', `${path}/inbound/items`, {
        ...(locationId ? { location_id: locationId } : {}),
        items: input.returnItems.map((item) => ({ id: item.lineItemId, quantity: item.quantity })),
      })
      await call('POST', `${path}/outbound/items`, {
        items: input.newItems.map((item) => ({ variant_id: item.variantId, quantity: item.quantity })),
      })
      await call('POST', `${path}/request`, {})
      const made = await call<{ exchange: RawExchange }>('GET', `${path}?${query({ fields: EXCHANGE_FIELDS })}`)
      return { exchangeId: exchange.id, returnId: made.exchange.return_id ?? null, alreadyDone: false }
    },
  }
  return client
}

export type MedusaClient = ReturnType<typeof medusaClient>
