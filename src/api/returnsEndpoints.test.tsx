import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { makeStore } from '../app/store'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { buildFlow, buildOrder } from '../testing/builders'
import { useCreateSupportTokenMutation } from './returnsEndpoints'

function renderSupportToken(flow?: ReturnFlowState) {
  const store = makeStore(flow ? { returnFlow: flow } : undefined)
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>
  return renderHook(() => useCreateSupportTokenMutation(), { wrapper })
}

test('createSupportToken sends the order’s token as Bearer and answers the read-only token for it', async () => {
  const { result } = renderSupportToken(buildFlow({ order: buildOrder({ token: 'shopper-token-1001' }) }))
  let answer: unknown
  await act(async () => {
    answer = await result.current[0]().unwrap()
  })
  expect(answer).toEqual({ token: 'read-only.shopper-token-1001', token_expires_at: '2026-11-10T12:00:00.000Z' })
})

test('createSupportToken without a verified order is refused as an expired session', async () => {
  const { result } = renderSupportToken()
  let failure: unknown
  await act(async () => {
    failure = await result.current[0]()
      .unwrap()
      .catch((error: unknown) => error)
  })
  expect(failure).toMatchObject({ status: 401, data: { error: 'session_expired' } })
})
