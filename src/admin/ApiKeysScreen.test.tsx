import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ApiKeyView, CreatedApiKey } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** The console's API keys page (docs/back-office.md: API keys), against the API's answers. */

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }
const signedIn = () => [
  http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
  http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
]
const TOKEN = `rbk_${'Q'.repeat(43)}`

const key = (overrides: Partial<ApiKeyView> = {}): ApiKeyView => ({
  id: 'key_00000000000000000001',
  label: 'Medusa sync',
  prefix: 'rbk_Ab3dE_',
  created_at: '2026-11-20T12:00:00.000Z',
  created_by: 'staff@demo.example',
  last_used_at: null,
  revoked_at: null,
  ...overrides,
})

/** The API's keys, as the handlers keep them: made, listed and revoked. */
function serveKeys(keys: ApiKeyView[]) {
  const posted: unknown[] = []
  const revoked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/api-keys', () => HttpResponse.json({ keys })),
    http.post('*/admin/api/api-keys', async ({ request }) => {
      const body = (await request.json()) as { label: string }
      posted.push(body)
      if (body.label === 'refuse me')
        return HttpResponse.json(
          { error: 'invalid_request', message: 'label: must be 1 to 80 characters' },
          { status: 400 },
        )
      const made = key({
        id: `key_0000000000000000000${keys.length + 1}`,
        label: body.label,
        prefix: TOKEN.slice(0, 10),
      })
      keys.push(made)
      return HttpResponse.json({ ...made, token: TOKEN } satisfies CreatedApiKey, { status: 201 })
    }),
    http.delete('*/admin/api/api-keys/:id', ({ params }) => {
      revoked.push(String(params.id))
      const at = keys.findIndex((each) => each.id === params.id)
      keys[at] = { ...keys[at]!, revoked_at: '2026-11-21T09:00:00.000Z' }
      return new HttpResponse(null, { status: 204 })
    }),
  )
  return { posted, revoked }
}

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

test('API keys is in the nav, lists the keys without their tokens, and says when there are none', async () => {
  serveKeys([
    key({ last_used_at: '2026-11-20T12:30:00.000Z' }),
    key({ id: 'key_00000000000000000002', label: 'Old ERP', revoked_at: '2026-11-20T13:00:00.000Z' }),
  ])
  renderConsole('/admin/api-keys')
  const nav = await screen.findByRole('navigation', { name: 'Back office' })
  expect(within(nav).getByRole('link', { name: 'API keys' })).toHaveAttribute('href', '/admin/api-keys')
  expect(await screen.findByRole('heading', { name: 'API keys', level: 1 })).toBeInTheDocument()
  const medusa = (await screen.findByRole('rowheader', { name: 'Medusa sync' })).closest('tr')!
  expect(within(medusa).getByText('rbk_Ab3dE_…')).toBeInTheDocument()
  expect(within(medusa).getByText('by staff@demo.example')).toBeInTheDocument()
  expect(within(medusa).getByRole('button', { name: 'Revoke Medusa sync' })).toBeInTheDocument()
  const old = screen.getByRole('rowheader', { name: 'Old ERP' }).closest('tr')!
  expect(within(old).queryByRole('button')).not.toBeInTheDocument()
  expect(within(old).getByText(/^Revoked /)).toBeInTheDocument()
  expect(within(old).getByText('Never')).toBeInTheDocument()
  expect(document.title).toBe('API keys · Returns back office')
})

test('a key is created with a label; its token is shown once, focused, with Copy and a warning; a refusal is said', async () => {
  const { posted } = serveKeys([])
  const user = userEvent.setup()
  renderConsole('/admin/api-keys')
  expect(await screen.findByText('No API keys yet.')).toBeInTheDocument()
  const label = screen.getByRole('textbox', { name: 'Label' })
  expect(label).toHaveAccessibleDescription('What the key is for, so staff can tell keys apart: “Medusa sync”.')

  await user.type(label, 'refuse me')
  await user.click(screen.getByRole('button', { name: 'Create key' }))
  expect(await screen.findByRole('alert')).toHaveTextContent('label: must be 1 to 80 characters')
  expect(label).toHaveValue('refuse me')

  await user.clear(label)
  await user.type(label, '  Medusa sync ')
  await user.click(screen.getByRole('button', { name: 'Create key' }))
  const token = await screen.findByRole('textbox', { name: 'The new API key' })
  expect(posted).toEqual([{ label: 'refuse me' }, { label: 'Medusa sync' }])
  expect(token).toHaveValue(TOKEN)
  expect(token).toHaveAttribute('readonly')
  await waitFor(() => expect(token).toHaveFocus())
  expect(token).toHaveAccessibleDescription(/it will not be shown again/)
  expect(screen.getByRole('heading', { name: 'Key “Medusa sync” created' })).toBeInTheDocument()
  expect(label).toHaveValue('')

  // userEvent's stand-in for the clipboard, watched.
  const write = jest.spyOn(navigator.clipboard, 'writeText')
  await user.click(screen.getByRole('button', { name: 'Copy' }))
  expect(await screen.findByRole('status')).toHaveTextContent('Copied.')
  expect(write).toHaveBeenCalledWith(TOKEN)
  // The list shows the new key by its prefix only.
  const row = (await screen.findByRole('rowheader', { name: 'Medusa sync' })).closest('tr')!
  expect(row).not.toHaveTextContent(TOKEN)
})

test('Revoke asks first; Cancel sends nothing and gives the focus back, confirming revokes', async () => {
  const { revoked } = serveKeys([key()])
  const user = userEvent.setup()
  renderConsole('/admin/api-keys')
  const button = await screen.findByRole('button', { name: 'Revoke Medusa sync' })
  await user.click(button)
  const question = await screen.findByRole('alertdialog', { name: 'Revoke “Medusa sync”?' })
  expect(question).toHaveAccessibleDescription(
    'Every call with the key rbk_Ab3dE_… is refused from now on, by every server. This cannot be undone.',
  )
  await waitFor(() => expect(question).toHaveFocus())
  await user.click(within(question).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  expect(button).toHaveFocus()
  expect(revoked).toEqual([])

  await user.click(button)
  await user.click(await screen.findByRole('button', { name: 'Revoke key' }))
  await waitFor(() => expect(revoked).toEqual(['key_00000000000000000001']))
  expect(await screen.findByText(/^Revoked /)).toBeInTheDocument()
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  expect(screen.getByRole('heading', { name: 'API keys', level: 1 })).toHaveFocus()
})
