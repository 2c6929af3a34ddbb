import type { ReturnReason, VerifiedOrder } from '../../../contract/api'
import { reasonPath } from '../../../contract/reasonTree'
import { PhotoThumb } from '../../components/PhotoThumb'
import { useT, type Translate } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { useVariantName } from '../returnFlow/size'

/** What happens to an item: the exchange variant's title, or a refund. */
function outcome(item: ChosenItem, order: VerifiedOrder, t: Translate): string {
  if (item.exchange?.kind !== 'exchange') return t('confirm.outcomeRefund')
  const variant = order.exchange_data?.variants[item.exchange.variantId]
  return variant ? t('confirm.outcomeExchangeFor', { variant: variant.title }) : t('confirm.outcomeExchange')
}

/** A reason with the reasons above it: "Not as described: Wrong item sent". */
function reasonWords(path: readonly ReturnReason[], t: Translate): string {
  return path
    .slice(1)
    .reduce((words, step) => t('reason.path', { reason: words, subReason: step.label }), path[0]!.label)
}

interface ChosenItemsProps {
  items: readonly ChosenItem[]
  order: VerifiedOrder
  /** line ids the quote says the shopper keeps (refunded without sending them back) */
  kept?: ReadonlySet<string>
  readOnly?: boolean
}

/** Every chosen item as the shopper described it, straight from the flow; which are kept, from the quote. */
export function ChosenItems({ items, order, kept, readOnly = false }: ChosenItemsProps) {
  const t = useT()
  const variant = useVariantName()
  return (
    <ul className="item-list confirm__items" aria-labelledby="confirm-items">
      {items.map((item) => {
        const line = order.line_items.find((candidate) => candidate.id === item.lineItemId)
        if (!line) return null
        const path = item.reason ? reasonPath(order.return_reasons, item.reason.id) : null
        const photoIds = item.reason?.photoIds ?? []
        const image = line.product_src ? safeUrl(line.product_src) : null
        const exchanged = item.exchange?.kind === 'exchange'
        return (
          <li key={item.lineItemId} className="item confirm__item">
            {image ? (
              <img className="item__image" src={image} alt="" width={56} height={56} />
            ) : (
              <span className="item__image" aria-hidden="true" />
            )}
            <span className="item__text">
              <span className="item__title">{line.title}</span>
              {variant(line) ? <span className="muted">{variant(line)}</span> : null}
              <span className="muted">{t('common.quantity', { quantity: item.quantity })}</span>
              {path ? <span>{t('confirm.reason', { reason: reasonWords(path, t) })}</span> : null}
              {item.reason?.comment ? <span className="muted confirm__comment">“{item.reason.comment}”</span> : null}
              {photoIds.length > 0 ? (
                // A group, not a list: the items' list counts its own items only.
                <span className="photo-thumbs" role="group" aria-label={t('confirm.photos', { title: line.title })}>
                  {photoIds.map((id, index) => (
                    <PhotoThumb
                      key={id}
                      id={id}
                      token={readOnly ? null : order.token}
                      alt={t('confirm.photoAlt', { index: index + 1, title: line.title })}
                    />
                  ))}
                </span>
              ) : null}
              <span className={`confirm__outcome${exchanged ? ' confirm__outcome--exchange' : ''}`}>
                {outcome(item, order, t)}
              </span>
              {!exchanged && kept?.has(item.lineItemId) ? (
                <span className="confirm__keep">{t('confirm.keepItem')}</span>
              ) : null}
            </span>
          </li>
        )
      })}
    </ul>
  )
}
