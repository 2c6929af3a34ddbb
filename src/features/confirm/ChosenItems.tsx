import type { VerifiedOrder } from '../../api/contract'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'

/** What happens to an item: the exchange variant's title, or a refund. */
function outcome(item: ChosenItem, order: VerifiedOrder): string {
  if (item.exchange?.kind !== 'exchange') return 'Refund'
  const variant = order.exchange_data?.variants[item.exchange.variantId]
  return variant ? `Exchange for ${variant.title}` : 'Exchange'
}

/** Every chosen item as the shopper described it, straight from the flow (no call needed). */
export function ChosenItems({ items, order }: { items: readonly ChosenItem[]; order: VerifiedOrder }) {
  return (
    <ul className="item-list confirm__items" aria-labelledby="confirm-items">
      {items.map((item) => {
        const line = order.line_items.find((candidate) => candidate.id === item.lineItemId)
        if (!line) return null
        const reason = order.return_reasons.find((candidate) => candidate.id === item.reason?.id)
        return (
          <li key={item.lineItemId} className="item confirm__item">
            <span className="item__text">
              <span className="item__title">{line.title}</span>
              {line.variant_title ? <span className="muted">{line.variant_title}</span> : null}
              <span className="muted">Quantity {item.quantity}</span>
              {reason ? <span>Reason: {reason.label}</span> : null}
              {item.reason?.comment ? <span className="muted confirm__comment">“{item.reason.comment}”</span> : null}
            </span>
            <span className="confirm__outcome">{outcome(item, order)}</span>
          </li>
        )
      })}
    </ul>
  )
}
