import { I18nProvider } from '@lingui/react'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { MemoryRouter, useLocation, type Location } from 'react-router-dom'
import { PortalRoutes } from '../app/routes'
import { makeStore } from '../app/store'
import { i18n } from '../i18n/i18n'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'

interface Options {
  route?: string
  preloadedState?: { returnFlow?: ReturnFlowState }
}

/** Where the portal is: `router.state.location` follows every navigation. */
interface RouterView {
  state: { location: Location }
}

function LocationProbe({ view }: { view: RouterView }) {
  view.state.location = useLocation()
  return null
}

/** Renders the portal as production does (same store, same routes) at a route, in memory. */
export function renderPortal({ route = '/', preloadedState }: Options = {}) {
  const store = makeStore(preloadedState)
  const router: RouterView = { state: { location: { pathname: route, search: '', hash: '', state: null, key: 'default' } } }
  const user = userEvent.setup()
  const utils = render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[route]}>
          <PortalRoutes />
          <LocationProbe view={router} />
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  )
  return { ...utils, store, router, user }
}
