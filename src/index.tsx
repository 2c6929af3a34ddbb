import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { persistStore } from 'redux-persist'
import { App } from './app/App'
import { makeStore } from './app/store'
import './styles.css'

const store = makeStore()
const root = createRoot(document.getElementById('root')!)

// The router starts after the session is restored from sessionStorage, so the first screen
// (and its loaders) see the shopper's choices, never an empty flow that is then overwritten.
persistStore(store, null, () => {
  root.render(
    <StrictMode>
      <App store={store} />
    </StrictMode>,
  )
})
