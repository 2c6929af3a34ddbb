import { I18nProvider } from '@lingui/react'
import { Provider } from 'react-redux'
import { i18n } from '../i18n/i18n'
import { PortalRouter } from './PortalRouter'
import { PortalRoutes } from './routes'
import type { AppStore } from './store'

/** The portal: the store's provider and the portal's words around browser-history routes. */
export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <PortalRouter>
          <PortalRoutes />
        </PortalRouter>
      </I18nProvider>
    </Provider>
  )
}
