import { Suspense, useDeferredValue, useMemo, type ReactNode } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { PoweredBy } from '../components/PoweredBy'
import { PreviewMarker } from '../components/PreviewMarker'
import { ShopLogo } from '../components/ShopLogo'
import { Spinner } from '../components/Spinner'
import { TestModeBanner } from '../components/TestModeBanner'
import { i18n, uiLocale } from '../i18n/i18n'
import { useT } from '../i18n/useT'
import { useUiLocale } from '../i18n/useUiLocale'
import { configIdFor } from '../features/returnFlow/location'
import { selectReadOnly } from '../features/returnFlow/returnFlowSlice'
import { useBranding } from '../shop/useBranding'
import { useShopConfig } from '../shop/useShopConfig'
import { useAppSelector } from './hooks'
import { RouteErrorBoundary } from './RouteError'
import { useLaunch } from './useLaunch'
import type { PortalConfig } from '../../contract/api'

/** The card's header: the shop's logo. */
const header = (config: PortalConfig) => (
  <header className="card__header">
    <ShopLogo
      src={config.logo_src}
      websiteUrl={config.website_url}
      shopName={config.document_title_text || config.shop}
    />
  </header>
)

/** The card while something the screen needs is on its way: a spinner, and no footer yet. */
function LoadingCard({ label, header }: { label: string; header?: ReactNode }) {
  return (
    <main className="card card--loading">
      {header}
      <div className="card__center">
        <Spinner label={label} />
      </div>
    </main>
  )
}

/**
 * The frame of every screen: branding, banners, logo and footer around the current step.
 *
 * Nothing below the card is shown before the screen itself (the footer comes with it), and a
 * later step whose chunk is still loading keeps the loading card (the Suspense boundary wraps
 * card and footer): so the first paint of the screen is its final layout, and nothing moves
 * while the configuration, the step's chunk and the logo arrive (Lighthouse's CLS is 0).
 * Moving between steps is a transition, so the step shown stays until the next one is ready.
 */
export function Shell() {
  const launch = useLaunch()
  const shop = useShopConfig(launch, configIdFor(launch.lang))
  const t = useT()
  useBranding(shop.config)
  useUiLocale(uiLocale(shop.wordsLang))
  // The render that follows the configuration's arrival is the page's largest (the whole screen):
  // deferred, React does it in slices that leave the main thread free (no long task, TBT).
  const loaded = useDeferredValue(
    useMemo(() => ({ config: shop.config, isLoading: shop.isLoading }), [shop.config, shop.isLoading]),
  )
  const config = loaded.config
  const { pathname } = useLocation()
  // A support view (read only) is opened from the support screen, a later step: its words are the
  // later steps' (not in the start bundle), shown once they are in, never as a message id (nor
  // asked for before: Lingui warns of a message it does not have).
  const readOnly = useAppSelector(selectReadOnly) && 'shell.readOnly' in i18n.messages
  const readOnlyNote = readOnly ? t('shell.readOnly') : null

  return (
    <div className="page">
      {config?.background_src ? <img className="page__background" src={config.background_src} alt="" /> : null}
      {shop.testMode ? <TestModeBanner /> : null}
      {shop.preview ? <PreviewMarker unread={shop.preview === 'unread'} /> : null}
      {readOnly ? (
        <div className="support-banner" role="note">
          {readOnlyNote}
        </div>
      ) : null}
      <div className="page__body">
        {config ? (
          // A later step whose chunk is still on its way keeps the shop's logo where the step
          // will show it (and where the page's first paint drew it: docs/performance.md).
          <Suspense fallback={<LoadingCard label={t('shell.loadingStep')} header={header(config)} />}>
            <main className="card">
              {header(config)}
              <RouteErrorBoundary resetKey={pathname}>
                <Outlet context={config} />
              </RouteErrorBoundary>
            </main>
            <PoweredBy />
          </Suspense>
        ) : loaded.isLoading ? (
          <LoadingCard label={t('shell.loadingPortal')} />
        ) : (
          <>
            <main className="card">
              <div className="card__center">
                {/* docs/rules.md §12: what a failed configuration fetch shows, as the page's heading. */}
                <h1 className="error-message">
                  <span role="alert">{t('shell.configError')}</span>
                </h1>
                <button type="button" className="button button--secondary" onClick={shop.retry}>
                  {t('common.tryAgain')}
                </button>
              </div>
            </main>
            <PoweredBy />
          </>
        )}
      </div>
    </div>
  )
}
