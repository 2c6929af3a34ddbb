import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../styles.css'
import './console.css'
import { Console } from './Console'
import { makeConsoleStore } from './store'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Console store={makeConsoleStore()} />
  </StrictMode>,
)
