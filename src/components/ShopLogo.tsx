import { useT } from '../i18n/useT'

interface ShopLogoProps {
  src: string | undefined
  websiteUrl: string | undefined
  shopName: string
}

/** The logo's box in CSS pixels, as styles.css gives it. */
const LOGO_BOX = { width: 220, height: 56 }

/** The shop's logo; a link to the shop's website in a new tab when it has one. */
export function ShopLogo({ src, websiteUrl, shopName }: ShopLogoProps) {
  const t = useT()
  const image = src ? (
    // A box of its own size (styles.css): the logo, of any shape, is fitted into it, so nothing
    // moves when it arrives.
    <img
      className="shop-logo__image"
      src={src}
      alt={websiteUrl ? t('shell.logoLink', { shop: shopName }) : shopName}
      width={LOGO_BOX.width}
      height={LOGO_BOX.height}
    />
  ) : null
  if (!image) return null
  if (!websiteUrl) return <div className="shop-logo">{image}</div>
  return (
    <a className="shop-logo" href={websiteUrl} target="_blank" rel="noopener noreferrer">
      {image}
    </a>
  )
}
