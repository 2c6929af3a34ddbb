import { useGetCatalogueQuery } from '../../api/returnsEndpoints'
import { formatMoney } from '../../components/format'
import { useLocale, useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import './NewItem.css'

/**
 * The new item taken in the exploration, as it was offered there (the cached catalogue): its
 * image, product, variant and price. Until the catalogue answers, it is named in general words.
 */
export function NewItem({ variantId, className }: { variantId: string; className: string }) {
  const { data } = useGetCatalogueQuery()
  const t = useT()
  const locale = useLocale()
  const product = data?.products.find((candidate) => candidate.variants.some((variant) => variant.id === variantId))
  const variant = product?.variants.find((candidate) => candidate.id === variantId)
  if (!product || !variant) return <p className={`item new-item ${className}`}>{t('confirm.newItem')}</p>
  const src = variant.image_src ?? product.image_src
  const image = src ? safeUrl(src) : null
  return (
    <div className={`item new-item ${className}`}>
      {image ? (
        <img className="item__image" src={image} alt="" width={56} height={56} />
      ) : (
        <span className="item__image" aria-hidden="true" />
      )}
      <span className="item__text">
        <span className="item__title">{variant.product_title}</span>
        {/* A variant without options has no title of its own ("Dotted Notebook", not "Dotted Notebook ()"). */}
        {variant.title ? <span className="muted">{variant.title}</span> : null}
        <span>{formatMoney(variant.price.presentment_money, locale)}</span>
      </span>
    </div>
  )
}
