import { screen, within, waitFor } from '@testing-library/react'
import { initialLaunch } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, money } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'

const tee = () =>
  buildLineItem({
    id: 'tee',
    title: 'Classic Tee',
    variant_title: 'M',
    quantity: 3,
    returnable_quantity: 3,
    price: money('25.00'),
  })
const mug = () => buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, price: money('12.50') })
const shirt = () =>
  buildLineItem({ id: 'shirt', title: 'Linen Shirt', ineligible_reason: 'final_sale', returnable_quantity: 0 })

function renderProducts(lineItems = [tee(), mug(), shirt()], flow: Parameters<typeof buildFlow>[0] = {}) {
  const order = buildOrder({ order_name: '#1001', processed_at: '2026-11-10T10:00:00.000Z', line_items: lineItems })
  return renderPortal({ route: '/products', preloadedState: { returnFlow: buildFlow({ order, ...flow }) } })
}

const continueButton = () => screen.getByRole('button', { name: /continue/i })
const itemRow = (name: RegExp) => screen.getByRole('checkbox', { name }).closest('li') as HTMLElement

describe('item selection', () => {
  test('shows the order name and date, and each item with its image, variant and price paid', async () => {
    renderProducts()
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })).toBeInTheDocument()
    expect(screen.getByText('#1001')).toBeInTheDocument()
    expect(screen.getByText('November 10, 2026')).toBeInTheDocument()
    const teeRow = itemRow(/Classic Tee/)
    expect(within(teeRow).getByText('M')).toBeInTheDocument()
    expect(within(teeRow).getByText('€25.00')).toBeInTheDocument()
    expect(teeRow.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/tee.png')
    expect(within(itemRow(/Ceramic Mug/)).getByText('€12.50')).toBeInTheDocument()
    expect(
      within(screen.getByRole('navigation', { name: 'Progress' }))
        .getByText('Items')
        .closest('li'),
    ).toHaveAttribute('aria-current', 'step')
  })

  test('a variant is named by its option on the line: "Size 43", not "43"', async () => {
    const shoe = buildLineItem({
      id: 'shoe',
      title: 'Trail Shoe',
      variant_title: '43',
      options: [{ name: 'Size', value: '43' }],
    })
    renderProducts([shoe, mug()])
    expect(await screen.findByRole('checkbox', { name: 'Trail Shoe Size 43' })).toBeInTheDocument()
    expect(within(itemRow(/Trail Shoe/)).queryByText('43')).not.toBeInTheDocument()
  })

  test('a value that says its option’s name stands alone: "One size", not "Size One size"', async () => {
    const scarf = buildLineItem({
      id: 'scarf',
      title: 'Wool Scarf',
      variant_title: 'One size',
      options: [{ name: 'Size', value: 'One size' }],
    })
    renderProducts([scarf, mug()])
    expect(await screen.findByRole('checkbox', { name: 'Wool Scarf One size' })).toBeInTheDocument()
  })

  test('a variant the catalogue gave no options keeps its title', async () => {
    renderProducts([buildLineItem({ id: 'cap', title: 'Cap', variant_title: 'One size', options: [] })])
    expect(await screen.findByRole('checkbox', { name: 'Cap One size' })).toBeInTheDocument()
  })

  test('the tab names the step before the shop, and Back to the start gives the shop’s title back', async () => {
    const { user } = renderProducts()
    await screen.findByRole('heading', { level: 1, name: 'Choose the items to return' })
    await waitFor(() => expect(document.title).toBe('Choose the items to return – Demo Store Returns'))
    await user.click(screen.getByRole('button', { name: 'Back' }))
    await screen.findByRole('textbox', { name: 'Order number' })
    await waitFor(() => expect(document.title).toBe('Demo Store Returns'))
  })

  test('items that cannot be returned are not selectable and say why in words', async () => {
    renderProducts([
      mug(),
      buildLineItem({ title: 'Linen Shirt', ineligible_reason: 'final_sale', returnable_quantity: 0 }),
      buildLineItem({ title: 'Wool Scarf', ineligible_reason: 'return_window_closed', returnable_quantity: 0 }),
      buildLineItem({ title: 'Canvas Bag', ineligible_reason: 'already_returned', returnable_quantity: 0 }),
      buildLineItem({ title: 'Rain Jacket', ineligible_reason: 'not_fulfilled', returnable_quantity: 0 }),
      buildLineItem({ title: 'Gift Box', ineligible_reason: null, returnable_quantity: 0 }),
    ])
    await screen.findByRole('heading', { level: 1 })
    const cases: [RegExp, string][] = [
      [/Linen Shirt/, 'Final sale'],
      [/Wool Scarf/, 'Return window closed'],
      [/Canvas Bag/, 'Already returned'],
      [/Rain Jacket/, 'Not yet delivered'],
      [/Gift Box/, 'Nothing left to return'],
    ]
    for (const [name, reason] of cases) {
      const checkbox = screen.getByRole('checkbox', { name })
      expect(checkbox).toBeDisabled()
      expect(checkbox).toHaveAccessibleDescription(expect.stringContaining(reason))
      expect(checkbox.closest('li')).toHaveClass('products__item--blocked')
    }
    expect(screen.getByRole('checkbox', { name: /Ceramic Mug/ })).toBeEnabled()
    expect(screen.queryByText('None of the items in this order can be returned.')).not.toBeInTheDocument()
  })

  test('an item a policy rule of the shop made ineligible names the rule beside the reason', async () => {
    renderProducts([
      buildLineItem({
        title: 'Ocean Swimsuit',
        ineligible_reason: 'final_sale',
        ineligible_rule: 'Swimwear',
        returnable_quantity: 0,
      }),
      buildLineItem({
        title: 'Sale Hoodie',
        ineligible_reason: 'return_window_closed',
        ineligible_rule: 'Sale items',
        returnable_quantity: 0,
      }),
      buildLineItem({ title: 'Linen Shirt', ineligible_reason: 'final_sale', returnable_quantity: 0 }),
      mug(),
    ])
    await screen.findByRole('heading', { level: 1 })
    const swimsuit = screen.getByRole('checkbox', { name: /Ocean Swimsuit/ })
    expect(swimsuit).toBeDisabled()
    expect(swimsuit).toHaveAccessibleDescription(expect.stringContaining('Final sale · Swimwear'))
    expect(within(itemRow(/Ocean Swimsuit/)).getByText('Final sale · Swimwear')).toBeVisible()
    expect(screen.getByRole('checkbox', { name: /Sale Hoodie/ })).toHaveAccessibleDescription(
      expect.stringContaining('Return window closed · Sale items'),
    )
    // Without a rule, the reason's words are as they were.
    expect(within(itemRow(/Linen Shirt/)).getByText('Final sale')).toBeVisible()
    expect(within(itemRow(/Linen Shirt/)).queryByText(/·/)).not.toBeInTheDocument()
  })

  test('the rule is the shop’s text, beside the reason in the shopper’s language', async () => {
    renderProducts(
      [
        buildLineItem({
          title: 'Badeanzug',
          ineligible_reason: 'final_sale',
          ineligible_rule: '<b>Bademode</b>',
          returnable_quantity: 0,
        }),
        mug(),
      ],
      { launch: { ...initialLaunch, lang: 'de' } },
    )
    await screen.findByRole('heading', { level: 1 })
    const row = itemRow(/Badeanzug/)
    expect(within(row).getByText('Vom Umtausch ausgeschlossen · <b>Bademode</b>')).toBeVisible()
    expect(row.querySelector('b')).toBeNull()
  })

  test('Continue is enabled once one unit is chosen, and disabled again when none is', async () => {
    const { user } = renderProducts()
    await screen.findByRole('heading', { level: 1 })
    expect(continueButton()).toBeDisabled()
    expect(screen.getByText('Choose at least one item to continue.')).toBeInTheDocument()
    await user.click(screen.getByRole('checkbox', { name: /Ceramic Mug/ }))
    expect(continueButton()).toBeEnabled()
    expect(screen.getByText('1 item selected')).toBeInTheDocument()
    await user.click(screen.getByRole('checkbox', { name: /Ceramic Mug/ }))
    expect(continueButton()).toBeDisabled()
  })

  test('the quantity stepper appears for a chosen multi-unit item and stays within 1..returnable', async () => {
    const { user } = renderProducts([tee(), mug()])
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('group', { name: /quantity/i })).not.toBeInTheDocument()

    await user.click(screen.getByRole('checkbox', { name: /Ceramic Mug/ }))
    // One unit bought: no stepper.
    expect(screen.queryByRole('group', { name: /quantity/i })).not.toBeInTheDocument()

    await user.click(screen.getByRole('checkbox', { name: /Classic Tee/ }))
    const stepper = screen.getByRole('group', { name: 'Quantity of Classic Tee to return' })
    const fewer = within(stepper).getByRole('button', { name: 'Decrease quantity' })
    const more = within(stepper).getByRole('button', { name: 'Increase quantity' })
    expect(within(stepper).getByText('1 of 3')).toBeInTheDocument()
    expect(fewer).toHaveAttribute('aria-disabled', 'true')
    await user.click(fewer)
    expect(within(stepper).getByText('1 of 3')).toBeInTheDocument()

    await user.click(more)
    await user.click(more)
    expect(within(stepper).getByText('3 of 3')).toBeInTheDocument()
    expect(more).toHaveAttribute('aria-disabled', 'true')
    await user.click(more)
    expect(within(stepper).getByText('3 of 3')).toBeInTheDocument()
    expect(screen.getByText('4 items selected')).toBeInTheDocument()
  })

  test('Continue stores the chosen items and quantities in order-line order and goes to the first item’s reason', async () => {
    const { user, router, store } = renderProducts([tee(), mug(), shirt()])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('checkbox', { name: /Ceramic Mug/ }))
    await user.click(screen.getByRole('checkbox', { name: /Classic Tee/ }))
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }))
    await user.click(continueButton())

    expect(store.getState().returnFlow.items).toEqual([
      { lineItemId: 'tee', quantity: 2, reason: null, exchange: null },
      { lineItemId: 'mug', quantity: 1, reason: null, exchange: null },
    ])
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/tee/return-reason'))
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Classic Tee?' }),
    ).toBeInTheDocument()
  })

  test('a reload restores the selection and quantities from the store', async () => {
    renderProducts([tee(), mug()], {
      items: [{ lineItemId: 'tee', quantity: 2, reason: { id: 'too-small', comment: '' }, exchange: null }],
    })
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getByRole('checkbox', { name: /Classic Tee/ })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: /Ceramic Mug/ })).not.toBeChecked()
    expect(
      within(screen.getByRole('group', { name: 'Quantity of Classic Tee to return' })).getByText('2 of 3'),
    ).toBeInTheDocument()
    expect(continueButton()).toBeEnabled()
  })

  test('a stored choice of an item that can no longer be returned is not restored', async () => {
    renderProducts([shirt(), mug()], { items: [{ lineItemId: 'shirt', quantity: 1, reason: null, exchange: null }] })
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getByRole('checkbox', { name: /Linen Shirt/ })).not.toBeChecked()
    expect(continueButton()).toBeDisabled()
  })

  test('dates and prices follow the shopper’s language', async () => {
    renderProducts([mug()], { launch: { ...initialLaunch, lang: 'de' } })
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getByText('10. November 2026')).toBeInTheDocument()
    expect(screen.getByText(/12,50\s€/)).toBeInTheDocument()
  })

  test('an image that is not http(s) is not shown, and a title stays text', async () => {
    renderProducts([buildLineItem({ id: 'odd', title: '<b>Bold</b> Tee', product_src: 'javascript:alert(1)' })])
    await screen.findByRole('heading', { level: 1 })
    const row = itemRow(/Bold/)
    expect(row.querySelector('img')).toBeNull()
    expect(row.querySelector('b')).toBeNull()
    expect(within(row).getByText('<b>Bold</b> Tee')).toBeInTheDocument()
  })

  test('an order where nothing can be returned says so and cannot continue', async () => {
    renderProducts([shirt()])
    expect(await screen.findByText('None of the items in this order can be returned.')).toBeInTheDocument()
    expect(continueButton()).toBeDisabled()
  })

  test('a 150-line order lists every item and selects one without re-rendering trouble', async () => {
    const lines = Array.from({ length: 150 }, (_, index) =>
      buildLineItem({ id: `bulk-${index}`, title: `Bulk item ${index + 1}` }),
    )
    const { user, store, router } = renderProducts(lines)
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getAllByRole('checkbox')).toHaveLength(150)
    await user.click(screen.getByRole('checkbox', { name: 'Bulk item 150 M' }))
    await user.click(continueButton())
    expect(store.getState().returnFlow.items.map((item) => item.lineItemId)).toEqual(['bulk-149'])
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/bulk-149/return-reason'))
  })

  test('each change is stored as it is made, so a reload of the step keeps it (docs/rules.md §16.4)', async () => {
    const { user, router, store } = renderProducts()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('checkbox', { name: /Classic Tee/ }))
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }))
    await user.click(screen.getByRole('checkbox', { name: /Ceramic Mug/ }))
    expect(store.getState().returnFlow.items.map(({ lineItemId, quantity }) => ({ lineItemId, quantity }))).toEqual([
      { lineItemId: 'tee', quantity: 2 },
      { lineItemId: 'mug', quantity: 1 },
    ])
    await user.click(screen.getByRole('checkbox', { name: /Ceramic Mug/ }))
    expect(store.getState().returnFlow.items.map((item) => item.lineItemId)).toEqual(['tee'])
    expect(router.state.location.pathname).toBe('/products')
  })
})
