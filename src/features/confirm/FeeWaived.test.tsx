import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildInstructions, buildLineItem, buildOrder, buildQuote, money } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

/** A return fee the shop waives for the reason given (decision 0062) is said to be waived, not "free". */

const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const order = buildOrder({
  line_items: [mug],
  return_reasons: [{ id: 'damaged', label: 'Arrived damaged', comment_required: false }],
})
const items: ChosenItem[] = [{ lineItemId: 'mug', quantity: 1, reason: { id: 'damaged', comment: '' }, exchange: null }]
const breakdown = {
  items_subtotal: money('10.00'),
  tax: money('2.00'),
  return_fee: money('0.00'),
  bonus: money('0.00'),
  upsell: money('0.00'),
  total: money('12.00'),
}

function renderConfirm(waived: boolean) {
  const quote = buildQuote('12.00', {
    refund_method: 'original_payment',
    breakdown: waived ? { ...breakdown, return_fee_waived: true } : breakdown,
  })
  server.use(
    http.post('*/portal-registration/returns/quote', () => HttpResponse.json(quote)),
    http.get('*/portal-registration/returns/:id/instructions', () => HttpResponse.json(buildInstructions())),
  )
  renderPortal({
    route: '/confirm',
    preloadedState: { returnFlow: buildFlow({ order, items, refundMethod: 'original_payment' }) },
  })
}

const feeRow = async () => (await screen.findByText('Return fee')).closest('.confirm__row') as HTMLElement

test('confirm: a waived return fee says it is waived for the reason, and takes nothing', async () => {
  renderConfirm(true)
  const row = await feeRow()
  expect(within(row).getByText('Waived for your return reason')).toBeInTheDocument()
  expect(row).not.toHaveTextContent('Free')
  expect(row).not.toHaveTextContent('−')
})

test('confirm: a shop without a fee still says "Free"', async () => {
  renderConfirm(false)
  const row = await feeRow()
  expect(within(row).getByText('Free')).toBeInTheDocument()
  expect(row).not.toHaveTextContent('Waived')
})
