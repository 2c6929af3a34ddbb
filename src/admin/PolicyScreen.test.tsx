import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ShopPolicy } from '../../contract/policy'
import type { StaffPolicy } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** The Policy screen (docs/lifecycle.md, Policy) against GET and PUT /admin/api/policy. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }
const SHOP = {
  shop: 'demo',
  reasons: [
    { id: 'damaged', label: 'Arrived damaged' },
    { id: 'changed_mind', label: 'Changed my mind' },
  ],
}

const staffPolicy = (policy: ShopPolicy): StaffPolicy => ({
  policy,
  tags: ['swimwear', 'sale', 'underwear'],
  return_window_days: 30,
  currency_code: 'EUR',
})

const SAVED: ShopPolicy = {
  windows: [{ tag: 'swimwear', days: 14, label: 'Swimwear' }],
  final_sale: [{ tag: 'underwear', label: 'Underwear' }],
  blocked: { emails: ['abuser@example.com'] },
  limit: { returns: 5, days: 90 },
  review: { over_amount: '200.00', photo_reasons: ['damaged'], answer_within_days: 3 },
  deductions: { opened: 10, damaged: 50 },
}

/** The policy server: GET answers what was last saved; PUT answers `refuse`'s message as a 400 when given. */
function policyServer(initial: ShopPolicy, refuse?: string) {
  let saved = initial
  const puts: ShopPolicy[] = []
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/shop', () => HttpResponse.json(SHOP)),
    http.get('*/admin/api/policy', () => HttpResponse.json(staffPolicy(saved))),
    http.put('*/admin/api/policy', async ({ request }) => {
      const body = (await request.json()) as ShopPolicy
      puts.push(body)
      if (refuse) return HttpResponse.json({ error: 'invalid_request', message: refuse }, { status: 400 })
      saved = body
      return HttpResponse.json(staffPolicy(saved))
    }),
  )
  return puts
}

function renderConsole(path = '/admin/policy') {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

const group = (name: string) => screen.getByRole('group', { name })

test('the policy loads into the form: rules by tag, blocked shoppers, the limit, review rules and deductions', async () => {
  policyServer(SAVED)
  renderConsole()
  const heading = await screen.findByRole('heading', { name: 'Return policy', level: 1 })
  await waitFor(() => expect(heading).toHaveFocus())
  expect(document.title).toBe('Policy · Returns back office')
  const window1 = await screen.findByRole('group', { name: 'Window 1' })
  expect(within(window1).getByLabelText('Tag')).toHaveValue('swimwear')
  expect(within(window1).getByLabelText('Tag')).toHaveAttribute('list', 'policy-tags')
  expect(within(window1).getByLabelText('Days')).toHaveValue(14)
  expect(within(window1).getByLabelText('Label shoppers read')).toHaveValue('Swimwear')
  // The catalogue's tags are offered as the tag is typed.
  expect([...document.querySelectorAll('#policy-tags option')].map((option) => option.getAttribute('value'))).toEqual([
    'swimwear',
    'sale',
    'underwear',
  ])
  expect(within(group('Final-sale tag 1')).getByLabelText('Tag')).toHaveValue('underwear')
  expect(screen.getByLabelText('Blocked e-mails')).toHaveValue('abuser@example.com')
  expect(screen.getByLabelText('Blocked order names')).toHaveValue('')
  expect(within(group('Shopper limit')).getByRole('checkbox')).toBeChecked()
  expect(within(group('Shopper limit')).getByLabelText('At most (returns)')).toHaveValue(5)
  expect(within(group('Shopper limit')).getByLabelText('Within (days)')).toHaveValue(90)
  expect(screen.getByLabelText('Worth more than (EUR)')).toHaveValue('200.00')
  const photoReasons = await screen.findByRole('group', { name: 'Returned with photos for these reasons' })
  expect(await within(photoReasons).findByRole('checkbox', { name: 'Arrived damaged' })).toBeChecked()
  expect(within(photoReasons).getByRole('checkbox', { name: 'Changed my mind' })).not.toBeChecked()
  expect(screen.getByRole('checkbox', { name: 'Flag shoppers who return often' })).not.toBeChecked()
  expect(screen.getByLabelText('Answer within (business days)')).toHaveValue(3)
  expect(screen.getByLabelText('As new (%)')).toHaveValue(null)
  expect(screen.getByLabelText('Opened (%)')).toHaveValue(10)
  expect(screen.getByLabelText('Damaged (%)')).toHaveValue(50)
  expect(screen.getByLabelText('Damaged (%)')).toHaveAttribute('max', '100')
})

test('editing and saving PUTs the whole policy; rows are added and removed with the focus kept; success is said', async () => {
  const puts = policyServer(SAVED)
  renderConsole()
  const user = userEvent.setup()
  await screen.findByRole('group', { name: 'Window 1' })

  await user.click(screen.getByRole('button', { name: 'Add a window' }))
  const window2 = group('Window 2')
  expect(within(window2).getByLabelText('Tag')).toHaveFocus()
  expect(within(window2).getByLabelText('Tag')).toBeRequired()
  await user.type(within(window2).getByLabelText('Tag'), 'sale')
  await user.type(within(window2).getByLabelText('Days'), '60')
  await user.type(within(window2).getByLabelText('Label shoppers read'), 'Sale items')

  await user.click(screen.getByRole('button', { name: 'Remove final-sale tag 1' }))
  expect(screen.queryByRole('group', { name: 'Final-sale tag 1' })).not.toBeInTheDocument()
  expect(screen.getByRole('button', { name: 'Add a final-sale tag' })).toHaveFocus()

  await user.click(screen.getByLabelText('Blocked e-mails'))
  await user.paste('\n  other@example.com \n\nabuser@example.com')
  await user.type(screen.getByLabelText('Blocked order names'), '#1001')
  await user.click(screen.getByRole('checkbox', { name: 'Limit how many returns one shopper makes' }))
  expect(screen.queryByLabelText('At most (returns)')).not.toBeInTheDocument()

  await user.clear(screen.getByLabelText('Worth more than (EUR)'))
  const photoReasons = group('Returned with photos for these reasons')
  await user.click(await within(photoReasons).findByLabelText('Changed my mind'))
  await user.click(within(photoReasons).getByLabelText('Arrived damaged'))
  await user.click(screen.getByLabelText('Flag shoppers who return often'))
  const frequent = group('Frequent returns')
  await user.type(within(frequent).getByLabelText('More than (returns)'), '3')
  await user.type(within(frequent).getByLabelText('Within (days)'), '30')
  await user.clear(screen.getByLabelText('Answer within (business days)'))
  await user.type(screen.getByLabelText('Wrong item (%)'), '100')
  await user.clear(screen.getByLabelText('Opened (%)'))
  // A wrong or missing item always holds an exchange; the shop may add a damaged one (decision 0055).
  const holds = group('Hold an exchange for your decision (its new item is not sent) when the item came back')
  expect(within(holds).getByRole('checkbox', { name: 'Wrong item (always)' })).toBeDisabled()
  expect(within(holds).getByRole('checkbox', { name: 'Missing from the parcel (always)' })).toBeChecked()
  await user.click(within(holds).getByRole('checkbox', { name: 'Damaged' }))

  await user.click(screen.getByRole('button', { name: 'Save policy' }))
  const saved = await screen.findByRole('status')
  await waitFor(() => expect(saved).toHaveTextContent('Policy saved.'))
  // The focus is on what happened, not lost to the page while the button was disabled.
  await waitFor(() => expect(saved).toHaveFocus())
  expect(puts).toEqual([
    {
      windows: [
        { tag: 'swimwear', days: 14, label: 'Swimwear' },
        { tag: 'sale', days: 60, label: 'Sale items' },
      ],
      blocked: { emails: ['abuser@example.com', 'other@example.com'], order_names: ['#1001'] },
      review: { photo_reasons: ['changed_mind'], frequent: { returns: 3, days: 30 } },
      deductions: { damaged: 50, wrong_item: 100 },
      hold: ['damaged'],
    },
  ])
  // The form shows the policy as saved.
  expect(screen.getByLabelText('Blocked e-mails')).toHaveValue('abuser@example.com\nother@example.com')
  expect(screen.getByText('None.')).toBeInTheDocument()
})

test('a refused policy shows the server’s words next to the form, takes the focus, and keeps what was typed', async () => {
  const puts = policyServer({}, 'windows/0/tag: must be a tag of 1 to 64 characters, without commas or line breaks')
  renderConsole()
  const user = userEvent.setup()
  expect(await screen.findAllByText('None.')).toHaveLength(2)
  await user.click(screen.getByRole('button', { name: 'Add a window' }))
  await user.type(within(group('Window 1')).getByLabelText('Tag'), 'a,b')
  await user.type(within(group('Window 1')).getByLabelText('Days'), '10')
  await user.type(within(group('Window 1')).getByLabelText('Label shoppers read'), 'Odd')
  await user.click(screen.getByRole('button', { name: 'Save policy' }))
  // No product carries 'a,b': asked first, then saved anyway.
  await user.click(await screen.findByRole('button', { name: 'Save anyway' }))

  const alert = await screen.findByRole('alert')
  expect(alert).toHaveTextContent('windows/0/tag: must be a tag of 1 to 64 characters')
  await waitFor(() => expect(alert).toHaveFocus())
  expect(puts).toEqual([{ windows: [{ tag: 'a,b', days: 10, label: 'Odd' }] }])
  expect(within(group('Window 1')).getByLabelText('Tag')).toHaveValue('a,b')
  expect(screen.getByRole('status')).toHaveTextContent('')
})

test('a policy that cannot be loaded says why', async () => {
  policyServer({})
  server.use(
    http.get('*/admin/api/policy', () =>
      HttpResponse.json({ error: 'internal', message: 'The server could not answer.' }, { status: 500 }),
    ),
  )
  renderConsole()
  expect(await screen.findByRole('alert')).toHaveTextContent('The server could not answer.')
  expect(screen.queryByRole('button', { name: 'Save policy' })).not.toBeInTheDocument()
})

test('a tag no product carries is pointed out as typed, and asked about before saving', async () => {
  const puts = policyServer({})
  renderConsole()
  const user = userEvent.setup()
  expect(await screen.findAllByText('None.')).toHaveLength(2)
  await user.click(screen.getByRole('button', { name: 'Add a final-sale tag' }))
  const tag = within(group('Final-sale tag 1')).getByLabelText('Tag')
  await user.type(tag, 'Sale')
  expect(tag).toHaveAccessibleDescription('No product carries this tag yet.')
  await user.type(within(group('Final-sale tag 1')).getByLabelText('Label shoppers read'), 'Sale items')
  await user.click(screen.getByRole('button', { name: 'Save policy' }))

  const question = await screen.findByRole('alertdialog', { name: 'Save with tags no product carries?' })
  expect(question).toHaveAccessibleDescription(
    /No product of the shop carries “Sale”, so its rule applies to no product/,
  )
  await user.click(within(question).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  await waitFor(() => expect(tag).toHaveFocus())
  expect(puts).toEqual([])

  // Corrected to a tag the catalogue has: no question, saved at once.
  await user.clear(tag)
  await user.type(tag, 'sale')
  expect(tag).not.toHaveAccessibleDescription()
  await user.click(screen.getByRole('button', { name: 'Save policy' }))
  await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Policy saved.'))
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  expect(puts).toEqual([{ final_sale: [{ tag: 'sale', label: 'Sale items' }] }])
})
