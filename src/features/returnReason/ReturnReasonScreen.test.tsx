import { screen, within, waitFor } from '@testing-library/react'
import type { ReturnReason, VerifiedOrder } from '../../api/contract'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildVariant } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'

const reasons: ReturnReason[] = [
  { id: 'too-small', label: 'Too small', comment_required: false },
  { id: 'damaged', label: 'Arrived damaged', comment_required: true },
]
const tee = buildLineItem({
  id: 'tee',
  title: 'Classic Tee',
  variant_title: 'M',
  variant_id: 'v-m',
  quantity: 2,
  returnable_quantity: 2,
})
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const chosen = (lineItemId: string, more: Partial<ChosenItem> = {}): ChosenItem => ({
  lineItemId,
  quantity: 1,
  reason: null,
  exchange: null,
  ...more,
})

function renderReason(id: string, items: ChosenItem[], order: Partial<VerifiedOrder> = {}) {
  return renderPortal({
    route: `/return-item/${id}/return-reason`,
    preloadedState: {
      returnFlow: buildFlow({
        order: buildOrder({ line_items: [tee, mug], return_reasons: reasons, ...order }),
        items,
      }),
    },
  })
}

const continueButton = () => screen.getByRole('button', { name: /continue/i })
const reasonGroup = () => screen.getByRole('group', { name: 'Reason for the return' })

describe('return reason', () => {
  test('names the item, shows its card and the shop’s reasons as a radio group', async () => {
    renderReason('tee', [chosen('tee', { quantity: 2 }), chosen('mug')])
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Classic Tee?' }),
    ).toBeInTheDocument()
    expect(screen.getByText('Item 1 of 2')).toBeInTheDocument()
    expect(screen.getByText('Returning 2 units')).toBeInTheDocument()
    expect(
      within(reasonGroup())
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['too-small', 'damaged'])
    expect(screen.getByRole('radio', { name: 'Too small' })).not.toBeChecked()
    expect(
      within(screen.getByRole('navigation', { name: 'Progress' }))
        .getByText('Details')
        .closest('li'),
    ).toHaveAttribute('aria-current', 'step')
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument()
    // No comment field until a reason is chosen.
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
  })

  test('Continue without a reason says so and stays on the step', async () => {
    const { user, router, store } = renderReason('mug', [chosen('mug')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a reason to continue.')
    expect(screen.getByRole('radio', { name: 'Too small' })).toHaveFocus()
    expect(router.state.location.pathname).toBe('/return-item/mug/return-reason')
    expect(store.getState().returnFlow.items[0]!.reason).toBeNull()
  })

  test('a reason that requires a comment is not accepted without one', async () => {
    const { user, router, store } = renderReason('mug', [chosen('mug')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    const comment = screen.getByRole('textbox', { name: 'Tell us more (required)' })
    expect(comment).toBeRequired()

    await user.type(comment, '   ')
    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Please tell us more about the reason to continue.')
    expect(comment).toHaveAttribute('aria-invalid', 'true')
    expect(comment).toHaveAccessibleDescription('Please tell us more about the reason to continue.')
    expect(comment).toHaveFocus()
    expect(router.state.location.pathname).toBe('/return-item/mug/return-reason')

    await user.type(comment, 'The handle broke off ')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await user.click(continueButton())
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: 'The handle broke off' })
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/return-item/mug/return-reason'))
  })

  test('a reason without a required comment offers an optional one', async () => {
    const { user } = renderReason('mug', [chosen('mug')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Too small' }))
    expect(screen.getByRole('textbox', { name: 'Anything else we should know? (optional)' })).not.toBeRequired()
  })

  test('a reload restores the reason and comment given before', async () => {
    renderReason('mug', [chosen('mug', { reason: { id: 'damaged', comment: 'Cracked' } })])
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getByRole('radio', { name: 'Arrived damaged' })).toBeChecked()
    expect(screen.getByRole('textbox', { name: 'Tell us more (required)' })).toHaveValue('Cracked')
  })

  test('an item that was not chosen sends the shopper to the item selection', async () => {
    const { router } = renderReason('mug', [chosen('tee')])
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/products')
  })

  test('an exchangeable item goes on to its exchange step', async () => {
    const exchange_data = {
      options: { 'v-m': ['v-m', 'v-l'] },
      upsell_enabled: false,
      variants: {
        'v-m': buildVariant({ id: 'v-m' }),
        'v-l': buildVariant({ id: 'v-l', title: 'L', options: [{ name: 'Size', value: 'L' }] }),
      },
    }
    const { user, router } = renderReason('tee', [chosen('tee'), chosen('mug')], { exchange_data })
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Too small' }))
    await user.click(continueButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/tee/exchange'))
  })

  test('the last item with upsell enabled goes on to the upsell offer', async () => {
    const { user, router } = renderReason(
      'mug',
      [chosen('tee', { reason: { id: 'too-small', comment: '' } }), chosen('mug')],
      {
        exchange_data: { options: {}, upsell_enabled: true, variants: {} },
      },
    )
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Too small' }))
    await user.click(continueButton())
    await waitFor(() => expect(router.state.location.pathname).toBe('/upsell-offer'))
  })

  test('the next item’s reason step starts empty, not with the answer just given', async () => {
    const { user, router, store } = renderReason('tee', [chosen('tee'), chosen('mug')])
    await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Classic Tee?' })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    await user.type(screen.getByRole('textbox', { name: 'Tell us more (required)' }), 'Torn seam')
    await user.click(continueButton())

    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Ceramic Mug?' }),
    ).toHaveFocus()
    expect(screen.getByText('Item 2 of 2')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Arrived damaged' })).not.toBeChecked()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: 'Torn seam' })
  })

  test('the reason and comment are stored as they are given, so a reload of the step keeps them (PRODUCT.md §7)', async () => {
    const { user, router, store } = renderReason('mug', [chosen('mug')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: '' })
    await user.type(screen.getByRole('textbox', { name: 'Tell us more (required)' }), 'Chipped ')
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: 'Chipped' })
    // Stored is not accepted: Continue still asks for what the reason needs.
    expect(router.state.location.pathname).toBe('/return-item/mug/return-reason')
  })
})
