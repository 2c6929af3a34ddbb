import { useId } from 'react'
import type { CatalogueProduct, MoneyBag } from '../../../contract/api'
import { formatMoney } from '../../components/format'
import { readMinor } from '../../../contract/money'
import { useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import { useOptionName } from '../returnFlow/size'
import { fitsCredit, variantLabel } from './credit'

interface ProductCardProps {
  product: CatalogueProduct
  credit: MoneyBag
  choice: string | null
  onChoose: (variantId: string) => void
  locale: string
}

/** One catalogue product: image, title, lowest price, and its variants as radio chips. */
export function ProductCard({ product, credit, choice, onChoose, locale }: ProductCardProps) {
  const titleId = useId()
  const t = useT()
  const optionName = useOptionName()
  const image = product.image_src ? safeUrl(product.image_src) : null
  const lowest = product.variants.reduce<MoneyBag | null>(
    (low, variant) =>
      low === null ||
      (readMinor(variant.price.presentment_money) ?? Infinity) < (readMinor(low.presentment_money) ?? Infinity)
        ? variant.price
        : low,
    null,
  )
  return (
    <li className="explore__product">
      {image ? (
        <img className="explore__image" src={image} alt="" width={72} height={72} loading="lazy" />
      ) : (
        <span className="explore__image" aria-hidden="true" />
      )}
      <div className="explore__heading">
        <h2 className="explore__title" id={titleId}>
          {product.title}
        </h2>
        {lowest ? (
          <span className="muted">
            {product.variants.length > 1
              ? t('explore.from', { price: formatMoney(lowest.presentment_money, locale) })
              : formatMoney(lowest.presentment_money, locale)}
          </span>
        ) : null}
      </div>
      <fieldset className="explore__variants" aria-labelledby={titleId}>
        {product.variants.map((variant) => {
          const affordable = fitsCredit(variant.price, credit)
          const disabled = !variant.available || !affordable
          return (
            <label key={variant.id} className={`explore__chip${disabled ? ' explore__chip--off' : ''}`}>
              <input
                type="radio"
                name="upsell-variant"
                value={variant.id}
                checked={choice === variant.id}
                disabled={disabled}
                onChange={() => onChoose(variant.id)}
              />
              <span className="explore__chip-label">{variantLabel(variant, optionName)}</span>
              <span className="amount explore__price">{formatMoney(variant.price.presentment_money, locale)}</span>
              {!variant.available ? (
                <span className="explore__note">{t('common.outOfStock')}</span>
              ) : !affordable ? (
                <span className="explore__note">{t('explore.tooDear')}</span>
              ) : null}
            </label>
          )
        })}
      </fieldset>
    </li>
  )
}
