import { Provider } from 'react-redux'
import { BrowserRouter } from 'react-router-dom'
import { PortalRoutes } from './routes'
import type { AppStore } from './store'

/** The portal: the store's provider around browser-history routes. */
export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <BrowserRouter>
        <PortalRoutes />
      </BrowserRouter>
    </Provider>
  )
}
