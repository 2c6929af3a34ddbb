import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnOrder, ReturnOrderItem } from '../../../contract/api'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildQuote, money } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const socks = buildLineItem({
  id: 'socks',
  title: 'Cotton Socks',
  variant_title: null,
  variant_id: null,
  quantity: 2,
  returnable_quantity: 2,
  price: money('9.90'),
})
const beanie = buildLineItem({
  id: 'beanie',
  title: 'Wool Beanie',
  variant_title: null,
  variant_id: null,
  price: money('17.00'),
})
const order = buildOrder({
  line_items: [socks, beanie],
  return_reasons: [{ id: 'changed_mind', label: 'Changed my mind', comment_required: false }],
})
const chosen = (lineItemId: string, quantity = 1): ChosenItem => ({
  lineItemId,
  quantity,
  reason: { id: 'changed_mind', comment: '' },
  exchange: { kind: 'refund' },
})
const quoted = (line_item_id: string, title: string, keep?: boolean): ReturnOrderItem => ({
  line_item_id,
  title,
  variant_title: null,
  quantity: 1,
  reason_id: 'changed_mind',
  reason_label: 'Changed my mind',
  comment: null,
  exchange_variant_id: null,
  exchange_variant_title: null,
  ...(keep === undefined ? {} : { keep }),
})

function renderConfirm(items: ChosenItem[], quote: ReturnOrder) {
  server.use(http.post('*/portal-registration/returns/quote', () => HttpResponse.json(quote)))
  return renderPortal({
    route: '/confirm',
    preloadedState: { returnFlow: buildFlow({ order, items, refundMethod: 'original_payment' }) },
  })
}

const rowOf = (title: string) =>
  within(screen.getByRole('list', { name: 'Your items' }))
    .getAllByRole('listitem')
    .find((row) => row.textContent?.includes(title))!

describe('confirm: keep-item returns', () => {
  test('mixed: the kept item says to keep it, the other does not, and the breakdown names the kept part', async () => {
    renderConfirm(
      [chosen('socks'), chosen('beanie')],
      buildQuote('22.95', {
        items: [quoted('socks', 'Cotton Socks', true), quoted('beanie', 'Wool Beanie', false)],
        breakdown: {
          items_subtotal: money('22.61'),
          tax: money('4.29'),
          return_fee: money('3.95'),
          bonus: money('0.00'),
          upsell: money('0.00'),
          total: money('22.95'),
          kept_items: money('9.90'),
        },
      }),
    )
    expect(await screen.findByText('Includes €9.90 for items you keep: no need to send them back.')).toBeVisible()
    expect(rowOf('Cotton Socks')).toHaveTextContent('Keep it, no need to send it back')
    expect(rowOf('Wool Beanie')).not.toHaveTextContent(/Keep it/)
    expect(rowOf('Wool Beanie')).toHaveTextContent('Refund')
  })

  test('every item kept: each says so, and the fee shows as free', async () => {
    renderConfirm(
      [chosen('socks', 2)],
      buildQuote('19.80', {
        items: [{ ...quoted('socks', 'Cotton Socks', true), quantity: 2 }],
        breakdown: {
          items_subtotal: money('16.64'),
          tax: money('3.16'),
          return_fee: money('0.00'),
          bonus: money('0.00'),
          upsell: money('0.00'),
          total: money('19.80'),
          kept_items: money('19.80'),
        },
      }),
    )
    expect(await screen.findByText('Includes €19.80 for items you keep: no need to send them back.')).toBeVisible()
    expect(rowOf('Cotton Socks')).toHaveTextContent('Keep it, no need to send it back')
    expect(screen.getByText('Return fee').nextElementSibling).toHaveTextContent('Free')
  })

  test('every refunded item kept: the timing counts from the submission, never from receiving items', async () => {
    renderConfirm(
      [chosen('socks')],
      buildQuote('9.90', {
        items: [quoted('socks', 'Cotton Socks', true)],
        refund_timing: { original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' } },
      }),
    )
    expect(await screen.findByText('Arrives 5–10 business days after you submit your return')).toBeVisible()
    expect(screen.queryByText(/receive your items/)).not.toBeInTheDocument()
  })

  test('nothing kept, or a quote from before the flag existed: no keep note anywhere', async () => {
    renderConfirm([chosen('beanie')], buildQuote('13.05', { items: [quoted('beanie', 'Wool Beanie')] }))
    expect(await screen.findByText('Total')).toBeInTheDocument()
    expect(screen.queryByText(/keep/i)).not.toBeInTheDocument()
  })

  test('before the quote answers, nothing claims an item is kept', async () => {
    server.use(http.post('*/portal-registration/returns/quote', () => new Promise<Response>(() => {})))
    renderPortal({
      route: '/confirm',
      preloadedState: { returnFlow: buildFlow({ order, items: [chosen('socks')], refundMethod: 'original_payment' }) },
    })
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument()
    expect(screen.queryByText(/Keep it/)).not.toBeInTheDocument()
  })
})
