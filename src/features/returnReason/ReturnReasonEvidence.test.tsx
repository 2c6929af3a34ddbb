import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnReason } from '../../api/contract'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildQuote } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const reasons: ReturnReason[] = [
  { id: 'too-small', label: 'Too small', comment_required: false },
  { id: 'damaged', label: 'Arrived damaged', comment_required: true, photos_required: 1 },
  {
    id: 'not-as-described',
    label: 'Not as described',
    comment_required: false,
    children: [
      { id: 'colour', label: 'Colour differs from photos', comment_required: false },
      { id: 'wrong-item', label: 'Wrong item sent', comment_required: false, photos_required: 2 },
    ],
  },
  {
    id: 'quality',
    label: 'Quality',
    comment_required: false,
    children: [{ id: 'stitching', label: 'Loose stitching', comment_required: false }],
  },
]
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const chosen = (more: Partial<ChosenItem> = {}): ChosenItem => ({
  lineItemId: 'mug',
  quantity: 1,
  reason: null,
  exchange: null,
  ...more,
})
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0])
const photoFile = (name = 'mug.png', type = 'image/png', bytes: BlobPart = PNG) => new File([bytes], name, { type })
const photoId = (n: number) => `photo${String(n).padStart(17, '0')}`

/** The photo API: each upload gets the next id; previews answer a PNG for the order's token. */
function photoApi(answer?: () => Response) {
  const seen = { uploads: [] as { type: string | null; auth: string | null; size: number }[], previews: [] as string[] }
  server.use(
    http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('14.00'))),
    http.post('*/portal-registration/photos', async ({ request }) => {
      seen.uploads.push({
        type: request.headers.get('content-type'),
        auth: request.headers.get('authorization'),
        size: (await request.arrayBuffer()).byteLength,
      })
      if (answer) return answer()
      return HttpResponse.json(
        { id: photoId(seen.uploads.length), content_type: 'image/png', size: PNG.byteLength },
        { status: 201 },
      )
    }),
    http.get('*/portal-registration/photos/:id', ({ params, request }) => {
      seen.previews.push(`${String(params.id)} ${request.headers.get('authorization')}`)
      return new HttpResponse(PNG, { headers: { 'content-type': 'image/png' } })
    }),
  )
  return seen
}

function renderReason(item = chosen()) {
  return renderPortal({
    route: '/return-item/mug/return-reason',
    preloadedState: {
      returnFlow: buildFlow({
        order: buildOrder({ line_items: [mug], return_reasons: reasons, token: 'jane-token' }),
        items: [item],
      }),
    },
  })
}

const continueButton = () => screen.getByRole('button', { name: /continue/i })
const fileInput = () => screen.getByLabelText<HTMLInputElement>('Add photos')
const subGroup = (parent: string) => screen.queryByRole('group', { name: `${parent}: which fits best?` })

describe('sub-reasons', () => {
  test('a reason with sub-reasons shows them as a second, labelled radio group, announced; only a sub-reason continues', async () => {
    server.use(http.post('*/portal-registration/returns/quote', () => HttpResponse.json(buildQuote('14.00'))))
    const { user, store, router } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    expect(subGroup('Not as described')).not.toBeInTheDocument()
    await user.click(screen.getByRole('radio', { name: 'Not as described' }))

    const group = subGroup('Not as described')!
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['colour', 'wrong-item'])
    expect(screen.getByRole('status')).toHaveTextContent(
      '2 more specific options for “Not as described” are shown below.',
    )
    // A heading is not a reason: nothing is stored and nothing is asked yet.
    expect(store.getState().returnFlow.items[0]!.reason).toBeNull()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()

    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the option that fits best to continue.')
    expect(within(group).getByRole('radio', { name: 'Colour differs from photos' })).toHaveFocus()
    expect(group).toHaveAccessibleDescription('Choose the option that fits best to continue.')
    expect(router.state.location.pathname).toBe('/return-item/mug/return-reason')

    // Keyboard: the arrow key moves to, and chooses, the next sub-reason.
    await user.keyboard('{ArrowDown}')
    expect(within(group).getByRole('radio', { name: 'Wrong item sent' })).toBeChecked()
    await user.click(within(group).getByRole('radio', { name: 'Colour differs from photos' }))
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'colour', comment: '' })
    await user.click(continueButton())
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/return-item/mug/return-reason'))
  })

  test('changing the reason above clears a sub-reason that no longer belongs to it', async () => {
    const { user, store } = renderReason(chosen({ reason: { id: 'colour', comment: '' } }))
    await screen.findByRole('heading', { level: 1 })
    // Restored: the parent and its sub-reason are both checked.
    expect(screen.getByRole('radio', { name: 'Not as described' })).toBeChecked()
    expect(screen.getByRole('radio', { name: 'Colour differs from photos' })).toBeChecked()

    await user.click(screen.getByRole('radio', { name: 'Quality' }))
    expect(subGroup('Not as described')).not.toBeInTheDocument()
    expect(within(subGroup('Quality')!).getByRole('radio', { name: 'Loose stitching' })).not.toBeChecked()
    expect(store.getState().returnFlow.items[0]!.reason).toBeNull()

    await user.click(screen.getByRole('radio', { name: 'Too small' }))
    expect(subGroup('Quality')).not.toBeInTheDocument()
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'too-small', comment: '' })
  })
})

describe('photos', () => {
  test('a reason that asks for a photo says so, and Continue without one asks for it at the add button', async () => {
    photoApi()
    const { user, router } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByLabelText('Add photos')).not.toBeInTheDocument()
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    expect(screen.getByRole('group', { name: 'Photos (at least 1 required, up to 3)' })).toHaveAccessibleDescription(
      /JPEG, PNG or WebP, up to 5 MB each/,
    )
    await user.type(screen.getByRole('textbox', { name: 'Tell us more (required)' }), 'Chipped rim')

    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Add at least 1 photo to continue.')
    expect(fileInput()).toHaveFocus()
    expect(router.state.location.pathname).toBe('/return-item/mug/return-reason')
  })

  test('a chosen photo is uploaded with the order’s token, previewed with its alt text, stored by id and then continues', async () => {
    const seen = photoApi()
    const { user, store, router } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    await user.type(screen.getByRole('textbox', { name: 'Tell us more (required)' }), 'Chipped rim')
    await user.upload(fileInput(), photoFile())

    // A neutral tile first, then the picture (a data: URL: the CSP allows those, not blob:).
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Your photo 1 of the Ceramic Mug' })).toHaveAttribute(
        'src',
        expect.stringMatching(/^data:image\/png;base64,/),
      ),
    )
    await waitFor(() =>
      expect(store.getState().returnFlow.items[0]!.reason).toEqual({
        id: 'damaged',
        comment: 'Chipped rim',
        photoIds: [photoId(1)],
      }),
    )
    expect(seen.uploads).toEqual([{ type: 'image/png', auth: 'Bearer jane-token', size: PNG.byteLength }])
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()

    await user.click(continueButton())
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/return-item/mug/return-reason'))
  })

  test('a removed photo goes from the preview and the stored choice, and the reason asks again', async () => {
    photoApi()
    const { user, store } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    await user.upload(fileInput(), [photoFile('one.png'), photoFile('two.png')])
    await waitFor(() =>
      expect(store.getState().returnFlow.items[0]!.reason?.photoIds).toEqual([photoId(1), photoId(2)]),
    )
    const list = screen.getByRole('list', { name: 'Your photos' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)

    await user.click(screen.getByRole('button', { name: 'Remove photo 1' }))
    expect(within(list).getAllByRole('listitem')).toHaveLength(1)
    await waitFor(() => expect(store.getState().returnFlow.items[0]!.reason?.photoIds).toEqual([photoId(2)]))
    await user.click(screen.getByRole('button', { name: 'Remove photo 1' }))
    expect(screen.queryByRole('list', { name: 'Your photos' })).not.toBeInTheDocument()
    await waitFor(() => expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: '' }))
  })

  test('a sub-reason that asks for 2 photos takes at most 3, and says which file was left out', async () => {
    const seen = photoApi()
    const { user } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Not as described' }))
    await user.click(screen.getByRole('radio', { name: 'Wrong item sent' }))
    expect(screen.getByRole('group', { name: 'Photos (at least 2 required, up to 3)' })).toBeInTheDocument()
    await user.upload(fileInput(), [photoFile('1.png'), photoFile('2.png'), photoFile('3.png'), photoFile('4.png')])
    expect(screen.getByRole('alert')).toHaveTextContent('“4.png” was left out: you can add up to 3 photos.')
    await waitFor(() => expect(seen.uploads).toHaveLength(3))
    // Full: no add button until one is removed.
    expect(screen.queryByLabelText('Add photos')).not.toBeInTheDocument()
  })

  test('a file refused for what it is takes no place: a text file and three photos give three photos', async () => {
    const seen = photoApi()
    const { user } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    fireEvent.change(fileInput(), {
      target: {
        files: [
          photoFile('notes.txt', 'text/plain', 'hello'),
          photoFile('1.png'),
          photoFile('2.png'),
          photoFile('3.png'),
        ],
      },
    })
    expect(screen.getByRole('alert')).toHaveTextContent('“notes.txt” is not a photo we can take.')
    await waitFor(() => expect(seen.uploads).toHaveLength(3))
    expect(screen.queryByText(/was left out/)).not.toBeInTheDocument()
  })

  test.each([
    [
      'not an image',
      photoFile('notes.txt', 'text/plain', 'hello'),
      '“notes.txt” is not a photo we can take. Choose a JPEG, PNG or WebP image.',
    ],
    // jsdom draws no image: like a browser that cannot read a GIF, or shrink a photo, before sending it.
    [
      'a GIF the browser cannot draw again as a JPEG',
      photoFile('anim.gif', 'image/gif'),
      '“anim.gif” is not a photo we can take. Choose a JPEG, PNG or WebP image.',
    ],
    [
      'over 5 MB where the browser cannot shrink it',
      photoFile('huge.jpg', 'image/jpeg', new Uint8Array(5 * 1024 * 1024 + 1)),
      '“huge.jpg” is larger than 5 MB. Choose a smaller photo.',
    ],
  ])('a file that is %s is refused without an upload, with an error for that file', async (_name, file, message) => {
    const seen = photoApi()
    const { user } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    // As a browser's picker would hand it over, whatever `accept` says.
    fireEvent.change(fileInput(), { target: { files: [file, photoFile('fine.png')] } })
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    await screen.findByRole('img', { name: 'Your photo 1 of the Ceramic Mug' })
    await waitFor(() => expect(seen.uploads).toHaveLength(1))
  })

  test.each([
    [415, '“fake.png” is not a photo we can take. Choose a JPEG, PNG or WebP image.'],
    [413, '“fake.png” is larger than 5 MB. Choose a smaller photo.'],
    [500, '“fake.png” could not be uploaded. Please try again.'],
  ])('an upload the API refuses with %i is taken off the preview and said for that file', async (status, message) => {
    photoApi(() => HttpResponse.json({ error: 'x' }, { status }))
    const { user, store } = renderReason()
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    await user.upload(fileInput(), photoFile('fake.png'))
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    expect(screen.queryByRole('img', { name: /Your photo/ })).not.toBeInTheDocument()
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: '' })
  })

  test('after a reload the stored photos are previewed from the API with the order’s token', async () => {
    const seen = photoApi()
    renderReason(chosen({ reason: { id: 'damaged', comment: 'Chipped', photoIds: [photoId(7)] } }))
    // A neutral tile first, then the picture (a data: URL: the CSP allows those, not blob:).
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Your photo 1 of the Ceramic Mug' })).toHaveAttribute(
        'src',
        expect.stringMatching(/^data:image\/png;base64,/),
      ),
    )
    expect(seen.previews).toEqual([`${photoId(7)} Bearer jane-token`])
  })
})
