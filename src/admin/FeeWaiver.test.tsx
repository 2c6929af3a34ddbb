import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { Provider } from 'react-redux'
import type { ShopPolicy } from '../../contract/policy'
import type { ReturnDetail, StaffPolicy } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { Money } from './ReturnSections'
import { makeConsoleStore } from './store'

/** The return fee waived for reasons the shop marks (decision 0062): set in the Policy screen, shown on a return. */

const SHOP = {
  shop: 'demo',
  reasons: [
    { id: 'damaged', label: 'Arrived damaged' },
    { id: 'changed_mind', label: 'Changed my mind' },
  ],
}
const staffPolicy = (policy: ShopPolicy): StaffPolicy => ({
  policy,
  tags: [],
  return_window_days: 30,
  currency_code: 'EUR',
})

function policyServer(initial: ShopPolicy) {
  let saved = initial
  const puts: ShopPolicy[] = []
  server.use(
    http.get('*/admin/api/session', () =>
      HttpResponse.json({ email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }),
    ),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/shop', () => HttpResponse.json(SHOP)),
    http.get('*/admin/api/policy', () => HttpResponse.json(staffPolicy(saved))),
    http.put('*/admin/api/policy', async ({ request }) => {
      saved = (await request.json()) as ShopPolicy
      puts.push(saved)
      return HttpResponse.json(staffPolicy(saved))
    }),
  )
  return puts
}

test('the Policy screen marks the reasons without a return fee, loads them and saves them', async () => {
  const puts = policyServer({ waive_fee_reasons: ['damaged'] })
  window.history.pushState({}, '', '/admin/policy')
  render(<Console store={makeConsoleStore()} />)
  const user = userEvent.setup()
  const region = await screen.findByRole('region', { name: 'Return fee' })
  const reasons = within(region).getByRole('group', { name: 'No return fee for these reasons' })
  expect(await within(reasons).findByRole('checkbox', { name: 'Arrived damaged' })).toBeChecked()
  expect(within(reasons).getByRole('checkbox', { name: 'Changed my mind' })).not.toBeChecked()

  await user.click(within(reasons).getByRole('checkbox', { name: 'Arrived damaged' }))
  await user.click(screen.getByRole('button', { name: 'Save policy' }))
  await waitFor(() => expect(puts).toHaveLength(1))
  expect(puts[0]).not.toHaveProperty('waive_fee_reasons')

  await user.click(within(reasons).getByRole('checkbox', { name: 'Changed my mind' }))
  await user.click(screen.getByRole('button', { name: 'Save policy' }))
  await waitFor(() => expect(puts).toHaveLength(2))
  expect(puts[1]).toEqual({ waive_fee_reasons: ['changed_mind'] })
})

test('a return’s refund says its return fee was waived', () => {
  const bag = (amount: string) => ({
    shop_money: { amount, currency_code: 'EUR' },
    presentment_money: { amount, currency_code: 'EUR' },
  })
  const detail = {
    return_order: {
      refund_method: 'original_payment',
      breakdown: {
        items_subtotal: bag('25.00'),
        tax: bag('0.00'),
        return_fee: bag('0.00'),
        return_fee_waived: true,
        bonus: bag('0.00'),
        upsell: bag('0.00'),
        total: bag('25.00'),
      },
    },
    status: { refund: null },
    review: null,
  } as unknown as ReturnDetail
  // The refund section asks whether a store is connected: it needs the console's store.
  render(
    <Provider store={makeConsoleStore()}>
      <Money detail={detail} />
    </Provider>,
  )
  const refund = screen.getByRole('region', { name: 'Refund' })
  expect(within(refund).getByRole('row', { name: 'Return fee Waived for the reason' })).toBeInTheDocument()
  expect(within(refund).getByRole('row', { name: 'Total €25.00' })).toBeInTheDocument()
})
