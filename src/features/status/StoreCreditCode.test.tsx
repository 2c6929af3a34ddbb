import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { buildReturnStatus, buildStatusItem } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

/** Store credit issued reaches the shopper as a code to spend, never as a day to wait for (decision 0064). */

const SIGNATURE = 'aSignatureOfReturn1_xyzXYZ0123456789-abcde'
const eur = (amount: string) => ({ amount, currency_code: 'EUR' })

test('the status page shows the store credit’s code and what it is worth, and no day to expect it', async () => {
  server.use(
    http.get('*/portal-registration/returns/:id/status', () =>
      HttpResponse.json(
        buildReturnStatus({
          items: [
            buildStatusItem({ line_item_id: 'mug', title: 'Ceramic Mug', variant_title: null, state: 'refunded' }),
          ],
          refund: {
            method: 'store_credit',
            amount: eur('40.50'),
            timing: { from_days: 1, to_days: 3, business_days: true, after: 'receipt' },
            expected: { from: '2026-11-23', to: '2026-11-25' },
            store_credit: {
              code: 'GC-7KQ2-9XHD-M3PA-R8TW',
              amount: eur('40.50'),
              issued_at: '2026-11-20T12:00:00.000Z',
            },
          },
        }),
      ),
    ),
  )
  renderPortal({ route: `/status/return-1#${SIGNATURE}` })
  const refund = await screen.findByRole('region', { name: 'Your refund' })
  expect(within(refund).getByText('Your store credit code')).toBeInTheDocument()
  expect(within(refund).getByText('GC-7KQ2-9XHD-M3PA-R8TW')).toBeInTheDocument()
  expect(refund).toHaveTextContent('Worth €40.50. Enter it at checkout: you can spend it now.')
  expect(refund).not.toHaveTextContent(/Expected|November 2[35]/)
})
