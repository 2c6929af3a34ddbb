import { I18nProvider } from '@lingui/react'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { act } from 'react'
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from 'react-router-dom'
import { PortalRoutes } from '../app/routes'
import { makeStore } from '../app/store'
import { i18n } from '../i18n/i18n'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'

interface Options {
  route?: string
  preloadedState?: { returnFlow?: ReturnFlowState }
}

/** Where the portal is: `router.state.location` follows every navigation; `back()` is the browser's Back. */
interface RouterView {
  state: { location: Location }
  back(): void
}

/**
 * Tells the test, as each render of the routes happens, where the portal is and how it navigates:
 * during the render, so that a route still loading its screen is already where the portal is.
 */
function LocationProbe({ onRender }: { onRender: (location: Location, navigate: NavigateFunction) => void }) {
  onRender(useLocation(), useNavigate())
  return null
}

/** Renders the portal as production does (same store, same routes) at a route, in memory. */
export function renderPortal({ route = '/', preloadedState }: Options = {}) {
  const store = makeStore(preloadedState)
  const navigate: { current: NavigateFunction | null } = { current: null }
  const router: RouterView = {
    state: { location: { pathname: route, search: '', hash: '', state: null, key: 'default' } },
    back: () => act(() => void navigate.current?.(-1)),
  }
  const user = userEvent.setup()
  const utils = render(
    <Provider store={store}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[route]}>
          <PortalRoutes />
          <LocationProbe
            onRender={(location, navigateTo) => {
              router.state.location = location
              navigate.current = navigateTo
            }}
          />
        </MemoryRouter>
      </I18nProvider>
    </Provider>,
  )
  return { ...utils, store, router, user }
}
