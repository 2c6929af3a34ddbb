import { useT } from '../i18n/useT'

interface ShopLogoProps {
  src: string | undefined
  websiteUrl: string | undefined
  shopName: string
}

/** The shop's logo; a link to the shop's website in a new tab when it has one. */
export function ShopLogo({ src, websiteUrl, shopName }: ShopLogoProps) {
  const t = useT()
  const image = src ? (
    <img className="shop-logo__image" src={src} alt={websiteUrl ? t('shell.logoLink', { shop: shopName }) : shopName} />
  ) : null
  if (!image) return null
  if (!websiteUrl) return <div className="shop-logo">{image}</div>
  return (
    <a className="shop-logo" href={websiteUrl} target="_blank" rel="noopener noreferrer">
      {image}
    </a>
  )
}
