/**
 * The Medusa v2 adapter of the commerce engine (docs/commerce.md): each action mapped onto the
 * Admin API client (`medusa.ts`, decision 0073), which marks what it makes with the action's key
 * and reads it back before acting again.
 */
import type { EngineAction, EngineOutcome } from '../domain/engineActions'
import { engineOrderNumber } from '../domain/engineOrders'
import { EngineError, type CommerceEngine } from './engine'
import { MedusaError, type MedusaClient, type MedusaVariant } from './medusa'
import { engineOrderOf } from './medusaOrders'

export function medusaEngine(client: MedusaClient): CommerceEngine {
  async function carryOut(action: EngineAction, key: string): Promise<EngineOutcome> {
    switch (action.kind) {
      case 'request_return': {
        const made = await client.requestReturn({
          orderId: action.order_id,
          items: action.items.map(lineOf),
          reasonNote: action.note,
          key,
        })
        return { reference: made.returnId, alreadyDone: made.alreadyDone }
      }
      case 'receive_return': {
        const opened = await client.findReturnFor(action.order_id, action.return_key)
        if (!opened) throw new EngineError('refused', 'The return was never opened in Medusa.')
        const received = await client.receiveReturn({
          returnId: opened.id,
          items: action.items.map((item) => ({ ...lineOf(item), restock: item.restock })),
        })
        return { reference: opened.id, alreadyDone: received.alreadyDone }
      }
      case 'cancel_return': {
        const cancelled = await client.cancelReturn({ orderId: action.order_id, key: action.return_key })
        return { reference: cancelled.returnId, alreadyDone: cancelled.alreadyDone }
      }
      case 'refund': {
        const refunded = await client.refundPayment({
          orderId: action.order_id,
          amountMinor: action.amount_minor,
          note: action.note,
          key,
        })
        return { reference: refunded.refundId, alreadyDone: refunded.alreadyDone }
      }
      case 'store_credit': {
        const made = await client.createStoreCreditCode({
          code: action.code,
          amountMinor: action.amount_minor,
          currency: action.currency,
          email: action.email,
          key,
        })
        return { reference: made.promotionId, alreadyDone: made.alreadyDone }
      }
      case 'exchange': {
        const made = await client.createExchange({
          orderId: action.order_id,
          returnItems: action.return_items.map(lineOf),
          newItems: action.new_items.map((item) => ({ variantId: item.variant_id, quantity: item.quantity })),
          key,
        })
        return { reference: made.exchangeId, alreadyDone: made.alreadyDone }
      }
    }
  }

  return {
    name: 'medusa',
    async carryOut(action, key) {
      try {
        return await carryOut(action, key)
      } catch (error) {
        if (error instanceof MedusaError) throw new EngineError(error.kind, error.message)
        throw error
      }
    },
    async findOrder(number, email, options = {}) {
      // Medusa's display ids are numbers; any other name is no order of Medusa's.
      const displayId = engineOrderNumber(number)
      if (displayId === null) return null
      try {
        const order = await client.findOrder(Number(displayId), email, options)
        if (!order) return null
        const productIds = [...new Set(order.items.flatMap((item) => (item.productId ? [item.productId] : [])))]
        // One call per product of the order, at once: its variants are what an exchange offers.
        const variants = await Promise.all(
          productIds.map(async (productId): Promise<[string, MedusaVariant[]]> => [
            productId,
            await client.productVariants(productId, order.currency, options),
          ]),
        )
        return engineOrderOf(order, new Map(variants))
      } catch (error) {
        if (error instanceof MedusaError) throw new EngineError(error.kind, error.message)
        throw error
      }
    },
  }
}

const lineOf = (line: { line_item_id: string; quantity: number }) => ({
  lineItemId: line.line_item_id,
  quantity: line.quantity,
})
