import { QueryStatus } from '@reduxjs/toolkit/query'
import { waitFor } from '@testing-library/react'
import type { AppStore } from '../app/store'

/** How many of the portal API's queries and mutations are asked and not yet answered. */
function unanswered(store: AppStore): number {
  const { queries, mutations } = store.getState().portalApi
  return [...Object.values(queries), ...Object.values(mutations)].filter(
    (request) => request?.status === QueryStatus.pending,
  ).length
}

/**
 * Waits until the portal has an answer to everything it asked its API and shows no spinner: the
 * moment after which a test may say that nothing more was asked (a retry, a second verify), or
 * that a screen rendered with its data. A condition, not a pause: a busy machine only takes longer.
 */
export async function settled(store: AppStore): Promise<void> {
  await waitFor(() => {
    expect(unanswered(store)).toBe(0)
    expect(document.querySelector('.spinner')).toBeNull()
  })
}
