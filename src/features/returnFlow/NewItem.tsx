import type { ReactNode } from 'react'
import type { NewItem as NewItemShape } from '../../../contract/api'
import { useGetCatalogueQuery } from '../../api/returnsEndpoints'
import { formatMoney } from '../../components/format'
import { useLocale, useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import './NewItem.css'

/**
 * A new item (the upsell) as a card like the returned items: image, product, variant and price,
 * then whatever the screen adds (the status page's state).
 */
export function NewItemCard({
  item,
  className,
  children,
}: {
  item: Omit<NewItemShape, 'variant_id'>
  className: string
  children?: ReactNode
}) {
  const locale = useLocale()
  const image = item.image_src ? safeUrl(item.image_src) : null
  return (
    <div className={`item new-item ${className}`}>
      {image ? (
        <img className="item__image" src={image} alt="" width={56} height={56} />
      ) : (
        <span className="item__image" aria-hidden="true" />
      )}
      <span className="item__text">
        <span className="item__title">{item.product_title}</span>
        {/* A variant without options has no title of its own ("Dotted Notebook", not "Dotted Notebook ()"). */}
        {item.title ? <span className="muted">{item.title}</span> : null}
        <span>{formatMoney(item.price.presentment_money, locale)}</span>
        {children}
      </span>
    </div>
  )
}

/**
 * The new item taken in the exploration, as it was offered there (the cached catalogue). Until the
 * catalogue answers, it is named in general words.
 */
export function NewItem({ variantId, className }: { variantId: string; className: string }) {
  const { data } = useGetCatalogueQuery()
  const t = useT()
  const product = data?.products.find((candidate) => candidate.variants.some((variant) => variant.id === variantId))
  const variant = product?.variants.find((candidate) => candidate.id === variantId)
  if (!product || !variant) return <p className={`item new-item ${className}`}>{t('confirm.newItem')}</p>
  return <NewItemCard item={{ ...variant, image_src: variant.image_src ?? product.image_src }} className={className} />
}
