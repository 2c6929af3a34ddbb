import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { InstructionItem, NothingToSendInstructions, ReturnOrder } from '../../../contract/api'
import type { ReturnFlowState } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildInstructions, buildSubmittedReturn, money } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const items: ReturnFlowState['items'] = [
  { lineItemId: 'socks', quantity: 2, reason: { id: 'changed_mind', comment: '' }, exchange: { kind: 'refund' } },
]
const socks: InstructionItem = {
  line_item_id: 'socks',
  title: 'Cotton Socks',
  variant_title: null,
  quantity: 2,
  keep: true,
}
const beanie: InstructionItem = {
  line_item_id: 'beanie',
  title: 'Wool Beanie',
  variant_title: 'Grey',
  quantity: 1,
  keep: false,
}
const returnItem = (item: InstructionItem): ReturnOrder['items'][number] => ({
  line_item_id: item.line_item_id,
  title: item.title,
  variant_title: item.variant_title,
  quantity: item.quantity,
  reason_id: 'changed_mind',
  reason_label: 'Changed my mind',
  comment: null,
  exchange_variant_id: null,
  exchange_variant_title: null,
  keep: item.keep,
})

function renderInstructions(answer: object, submitted: ReturnOrder) {
  server.use(http.get('*/portal-registration/returns/:id/instructions', () => HttpResponse.json(answer)))
  return renderPortal({ route: '/return-instruction', preloadedState: { returnFlow: buildFlow({ items, submitted }) } })
}

describe('return instructions: keep-item returns', () => {
  test('every item kept: a clear "nothing to send", the items to keep, and no label, QR code or address', async () => {
    const answer: NothingToSendInstructions = {
      return_id: 'return-1',
      return_name: '#1010-R1',
      steps: ['Keep the items: there is nothing to pack, print or drop off. Your refund is on its way.'],
      items: [socks],
      nothing_to_send: true,
      status_token: 'signature',
    }
    renderInstructions(
      answer,
      buildSubmittedReturn({
        name: '#1010-R1',
        items: [returnItem(socks)],
        refund_method: 'original_payment',
        breakdown: { ...buildSubmittedReturn().breakdown, total: money('19.80') },
      }),
    )
    expect(await screen.findByRole('heading', { level: 2, name: 'You don’t need to send anything back' })).toBeVisible()
    expect(screen.getByText(answer.steps[0]!)).toBeVisible()
    expect(
      within(screen.getByRole('list', { name: 'Keep, no need to send back' })).getByRole('listitem'),
    ).toHaveTextContent('2 × Cotton Socks')
    expect(screen.queryByRole('list', { name: 'Send back' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /shipping label/ })).not.toBeInTheDocument()
    expect(screen.queryByText(/shipping label is not available/)).not.toBeInTheDocument()
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Return address' })).not.toBeInTheDocument()
    expect(screen.queryByText(/Pack the items/)).not.toBeInTheDocument()
    // The refund does not wait for a parcel that is never sent.
    expect(
      screen.getByText('We refund €19.80 to your original payment method. There is nothing to send back.'),
    ).toBeVisible()
  })

  test('mixed: what to send and what to keep, with the label and QR code for the parcel', async () => {
    renderInstructions(
      buildInstructions({
        items: [socks, beanie],
        steps: ['Pack only the items to send back in a parcel.', 'Print the label.', 'Drop it off.'],
      }),
      buildSubmittedReturn({ items: [returnItem(socks), returnItem(beanie)] }),
    )
    const send = await screen.findByRole('list', { name: 'Send back' })
    expect(within(send).getByRole('listitem')).toHaveTextContent('1 × Wool Beanie · Grey')
    expect(
      within(screen.getByRole('list', { name: 'Keep, no need to send back' })).getByRole('listitem'),
    ).toHaveTextContent('2 × Cotton Socks')
    expect(screen.getByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    expect(screen.getByRole('img', { name: /QR code/ })).toBeVisible()
    expect(screen.getByText(/Once we receive your items/)).toBeVisible()
  })

  test('nothing kept: no send or keep lists, the instructions as before', async () => {
    renderInstructions(
      buildInstructions({ items: [{ ...beanie }] }),
      buildSubmittedReturn({ items: [returnItem(beanie)] }),
    )
    expect(await screen.findByRole('link', { name: 'Download shipping label (PDF)' })).toBeVisible()
    expect(screen.queryByRole('list', { name: 'Send back' })).not.toBeInTheDocument()
    expect(screen.queryByRole('list', { name: /Keep/ })).not.toBeInTheDocument()
  })
})
