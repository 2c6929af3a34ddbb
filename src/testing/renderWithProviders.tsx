import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { makeRoutes } from '../app/routes'
import { makeStore } from '../app/store'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'

interface Options {
  route?: string
  preloadedState?: { returnFlow?: ReturnFlowState }
}

/** Renders the portal as production does (same store, same routes) at a route, in memory. */
export function renderPortal({ route = '/', preloadedState }: Options = {}) {
  const store = makeStore(preloadedState)
  const router = createMemoryRouter(makeRoutes(store), { initialEntries: [route] })
  const user = userEvent.setup()
  const utils = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { ...utils, store, router, user }
}
