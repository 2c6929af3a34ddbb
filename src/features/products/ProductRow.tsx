import { memo, useId } from 'react'
import { useT } from '../../i18n/useT'
import type { ProductRowModel } from './productRows'
import { QuantityStepper } from './QuantityStepper'

interface ProductRowProps {
  row: ProductRowModel
  /** units chosen; 0 when not chosen */
  chosen: number
  onChange: (lineItemId: string, quantity: number) => void
}

/** One line item of the selection list. Memoised: a change re-renders only its own row. */
export const ProductRow = memo(function ProductRow({ row, chosen, onChange }: ProductRowProps) {
  const id = useId()
  const t = useT()
  const blocked = row.maxQuantity < 1
  const left =
    row.maxQuantity > 0 && row.maxQuantity < row.quantity ? ` · ${t('products.left', { count: row.maxQuantity })}` : ''
  const className = `products__item${blocked ? ' products__item--blocked' : ''}${chosen > 0 ? ' products__item--chosen' : ''}`
  return (
    <li className={className}>
      <label className="products__main">
        <input
          type="checkbox"
          className="products__check"
          checked={chosen > 0}
          disabled={blocked}
          aria-labelledby={row.variantTitle ? `${id}-title ${id}-variant` : `${id}-title`}
          aria-describedby={`${id}-meta${blocked ? ` ${id}-reason` : ''}`}
          onChange={(event) => onChange(row.id, event.target.checked ? 1 : 0)}
        />
        {row.image ? (
          // The box holds the image's place until the list shows it (ProductsScreen, drawn).
          <span className="item__image products__image">
            <img src={row.image} alt="" width={56} height={56} loading="lazy" decoding="async" />
          </span>
        ) : (
          <span className="item__image products__image" aria-hidden="true" />
        )}
        <span className="products__text">
          <span className="item__title" id={`${id}-title`}>
            {row.title}
          </span>
          {row.variantTitle ? (
            <span className="muted" id={`${id}-variant`}>
              {row.variantTitle}
            </span>
          ) : null}
          <span className="products__meta" id={`${id}-meta`}>
            <span className="amount">{row.price}</span>
            {row.quantity > 1 ? ` ${t('products.eachQty', { quantity: row.quantity })}` : ''}
            {left}
          </span>
          {blocked ? (
            <span className="products__reason" id={`${id}-reason`}>
              {row.blockedReason
                ? row.blockedRule
                  ? t('ineligible.withRule', { reason: t(row.blockedReason), rule: row.blockedRule })
                  : t(row.blockedReason)
                : null}
            </span>
          ) : null}
        </span>
      </label>
      {chosen > 0 && row.maxQuantity > 1 ? (
        <QuantityStepper
          label={t('products.stepperLabel', { title: row.title })}
          value={chosen}
          max={row.maxQuantity}
          onChange={(quantity) => onChange(row.id, quantity)}
        />
      ) : null}
    </li>
  )
})
