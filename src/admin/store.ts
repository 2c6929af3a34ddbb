import { configureStore } from '@reduxjs/toolkit'
import { staffApi } from './api'

/** The console's store: the API's cache only; what staff look at lives in the address. */
export function makeConsoleStore() {
  return configureStore({
    reducer: { [staffApi.reducerPath]: staffApi.reducer },
    middleware: (getDefault) => getDefault().concat(staffApi.middleware),
  })
}

export type ConsoleStore = ReturnType<typeof makeConsoleStore>
