import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ExchangeData, ReturnReason } from '../../api/contract'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildQuote, buildVariant } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const size = (id: string, value: string, available = true) =>
  buildVariant({ id, title: value, options: [{ name: 'Size', value }], available })
const tee = buildLineItem({ id: 'tee', title: 'Classic Tee', variant_title: 'M', variant_id: 'v-m' })
const exchangeData = (out: string[] = []): ExchangeData => ({
  options: { 'v-m': ['v-s', 'v-m', 'v-l', 'v-xl'] },
  upsell_enabled: false,
  variants: Object.fromEntries(
    ['S', 'M', 'L', 'XL'].map((value) => [
      `v-${value.toLowerCase()}`,
      size(`v-${value.toLowerCase()}`, value, !out.includes(value)),
    ]),
  ),
})
const reasons: ReturnReason[] = [
  { id: 'too_small', label: 'Too small', comment_required: false, fit: 'too_small' },
  { id: 'too_large', label: 'Too large', comment_required: false, fit: 'too_large' },
  { id: 'changed_mind', label: 'Changed my mind', comment_required: false },
]
const chosen = (reasonId: string, exchange: ChosenItem['exchange'] = null): ChosenItem => ({
  lineItemId: 'tee',
  quantity: 1,
  reason: { id: reasonId, comment: '' },
  exchange,
})

function renderExchange(item: ChosenItem, out: string[] = []) {
  return renderPortal({
    route: '/return-item/tee/exchange',
    preloadedState: {
      returnFlow: buildFlow({
        order: buildOrder({ line_items: [tee], exchange_data: exchangeData(out), return_reasons: reasons }),
        items: [item],
      }),
    },
  })
}

const variantsGroup = () => screen.getByRole('group', { name: 'Exchange for another variant' })
const continueButton = () => screen.getByRole('button', { name: /continue/i })

describe('fit-aware exchange', () => {
  test('too small: the next size up is preselected and the group says why, to the eye and to screen readers', async () => {
    // Every item exchanged: the flow goes on to confirm, which asks for a quote.
    server.use(http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('0.00'))))
    const { user, router, store } = renderExchange(chosen('too_small'))
    await screen.findByRole('heading', { level: 1 })
    const why = 'We picked size L, one size up, because you said size M was too small. You can choose another.'
    expect(screen.getByRole('radio', { name: 'Size L' })).toBeChecked()
    expect(screen.getByText(why)).toBeVisible()
    expect(variantsGroup()).toHaveAccessibleDescription(why)
    expect(screen.getByText('Suggested')).toBeVisible()
    // Nothing is stored until the shopper moves on: the suggestion is not their choice yet.
    expect(store.getState().returnFlow.items[0]!.exchange).toBeNull()
    await user.click(continueButton())
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-l' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm'))
  })

  test('too large: the next size down is preselected', async () => {
    renderExchange(chosen('too_large'))
    expect(await screen.findByRole('radio', { name: 'Size S' })).toBeChecked()
    expect(
      screen.getByText(
        'We picked size S, one size down, because you said size M was too large. You can choose another.',
      ),
    ).toBeVisible()
  })

  test('the next size out of stock: the nearest one in stock beyond it, and the words say it was not the next', async () => {
    renderExchange(chosen('too_small'), ['L'])
    expect(await screen.findByRole('radio', { name: 'Size XL' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Size L Out of stock' })).not.toBeChecked()
    expect(
      screen.getByText(
        'We picked size XL, the next larger size we have, because you said size M was too small. You can choose another.',
      ),
    ).toBeVisible()
  })

  test('no size in that direction in stock: nothing preselected, it says so, and Continue still asks for a choice', async () => {
    const { user, router } = renderExchange(chosen('too_large'), ['S'])
    await screen.findByRole('heading', { level: 1 })
    const why =
      'You said size M was too large, but we have no smaller size right now. You can choose another option or a refund.'
    expect(screen.getByText(why)).toBeVisible()
    expect(variantsGroup()).toHaveAccessibleDescription(why)
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked()
    expect(screen.queryByText('Suggested')).not.toBeInTheDocument()
    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a replacement or Refund instead to continue.')
    expect(router.state.location.pathname).toBe('/return-item/tee/exchange')
  })

  test('the shopper can choose another size: it is stored at once, and the suggestion does not come back', async () => {
    const { user, store } = renderExchange(chosen('too_small'))
    await user.click(await screen.findByRole('radio', { name: 'Size S' }))
    expect(screen.getByRole('radio', { name: 'Size S' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Size L' })).not.toBeChecked()
    expect(store.getState().returnFlow.items[0]!.exchange).toEqual({ kind: 'exchange', variantId: 'v-s' })
  })

  test.each<[string, ChosenItem['exchange'], string]>([
    ['another size', { kind: 'exchange', variantId: 'v-s' }, 'Size S'],
    ['a refund', { kind: 'refund' }, 'Refund instead'],
  ])('a choice made before (%s) is restored, never replaced by the suggestion', async (_name, exchange, checked) => {
    renderExchange(chosen('too_small', exchange))
    expect(await screen.findByRole('radio', { name: new RegExp(`^${checked}`) })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Size L' })).not.toBeChecked()
  })

  test('a reason without a fit marker preselects nothing and says nothing about sizes', async () => {
    renderExchange(chosen('changed_mind'))
    await screen.findByRole('heading', { level: 1 })
    for (const radio of screen.getAllByRole('radio')) expect(radio).not.toBeChecked()
    expect(screen.queryByText(/We picked/)).not.toBeInTheDocument()
    expect(variantsGroup()).not.toHaveAccessibleDescription()
  })

  test('in German, the reason is given in German', async () => {
    renderPortal({
      route: '/return-item/tee/exchange',
      preloadedState: {
        returnFlow: buildFlow({
          launch: { lang: 'de', testMode: false, configOverride: null },
          order: buildOrder({ line_items: [tee], exchange_data: exchangeData(), return_reasons: reasons }),
          items: [chosen('too_small')],
        }),
      },
    })
    expect(
      await screen.findByText(
        'Wir haben Größe L gewählt, eine Nummer größer, weil Ihnen Größe M zu klein war. Sie können auch etwas anderes wählen.',
      ),
    ).toBeVisible()
  })
})
