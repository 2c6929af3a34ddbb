import { Outlet, useLocation } from 'react-router-dom'
import { ErrorMessage } from '../components/ErrorMessage'
import { PoweredBy } from '../components/PoweredBy'
import { PreviewMarker } from '../components/PreviewMarker'
import { ShopLogo } from '../components/ShopLogo'
import { Spinner } from '../components/Spinner'
import { TestModeBanner } from '../components/TestModeBanner'
import { useBranding } from '../shop/useBranding'
import { useShopConfig } from '../shop/useShopConfig'
import { RouteErrorBoundary } from './RouteError'

/** portal-spec.md §8: what a failed configuration fetch shows. */
export const CONFIG_ERROR = 'Error fetching config'

/** The frame of every screen: branding, banners, logo and footer around the current step. */
export function Shell() {
  const shop = useShopConfig()
  useBranding(shop.config)
  const config = shop.config
  const { pathname } = useLocation()

  return (
    <div className="page">
      {config?.background_src ? <img className="page__background" src={config.background_src} alt="" /> : null}
      {shop.testMode ? <TestModeBanner /> : null}
      {shop.preview ? <PreviewMarker /> : null}
      <div className="page__body">
        <main className="card">
          {config ? (
            <>
              <header className="card__header">
                <ShopLogo src={config.logo_src} websiteUrl={config.website_url} shopName={config.document_title_text || config.shop} />
              </header>
              <RouteErrorBoundary resetKey={pathname}>
                <Outlet context={config} />
              </RouteErrorBoundary>
            </>
          ) : shop.isLoading ? (
            <div className="card__center">
              <Spinner label="Loading the returns portal" />
            </div>
          ) : (
            <div className="card__center">
              <ErrorMessage>{CONFIG_ERROR}</ErrorMessage>
              <button type="button" className="button button--secondary" onClick={shop.retry}>
                Try again
              </button>
            </div>
          )}
        </main>
        <PoweredBy />
      </div>
    </div>
  )
}
