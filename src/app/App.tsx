import { useMemo } from 'react'
import { Provider } from 'react-redux'
import { createBrowserRouter, RouterProvider } from 'react-router-dom'
import { makeRoutes } from './routes'
import type { AppStore } from './store'

/** The portal: the store's provider around a browser-history router. */
export function App({ store }: { store: AppStore }) {
  const router = useMemo(() => createBrowserRouter(makeRoutes(store)), [store])
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  )
}
