import { screen, within, fireEvent, waitFor } from '@testing-library/react'
import type { ReturnReason, VerifiedOrder } from '../../../contract/api'
import type { ChosenItem } from '../returnFlow/returnFlowSlice'
import { buildFlow, buildLineItem, buildOrder, buildVariant, buildQuote } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { http, HttpResponse } from 'msw'
import { server } from '../../testing/server'

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

  describe('fit reasons (Too small, Too large) only for an item with a size', () => {
    const fitReasons = [
      { id: 'too-small', label: 'Too small', comment_required: false, fit: 'too_small' },
      { id: 'too-large', label: 'Too large', comment_required: false, fit: 'too_large' },
      { id: 'damaged', label: 'Arrived damaged', comment_required: false },
      {
        id: 'quality',
        label: 'Quality',
        comment_required: false,
        children: [
          { id: 'runs-small', label: 'Runs small', comment_required: false, fit: 'too_small' },
          { id: 'stitching', label: 'Loose stitching', comment_required: false },
        ],
      },
    ] as ReturnReason[]
    const radios = (group: HTMLElement) =>
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value'))

    test.each([
      ['a size option', [{ name: 'Size', value: 'M' }], true],
      ['a German size option', [{ name: 'Größe', value: '38' }], true],
      ['options the catalogue does not know', undefined, true],
      ['no options at all', [], false],
      ['a colour but no size', [{ name: 'Colour', value: 'Blue' }], false],
    ])('an item with %s', async (_name, options, sized) => {
      const line = buildLineItem({ id: 'cap', title: 'Cap', ...(options ? { options } : {}) })
      const { user } = renderReason('cap', [chosen('cap')], { line_items: [line], return_reasons: fitReasons })
      await screen.findByRole('heading', { level: 1 })
      expect(radios(reasonGroup())).toEqual(
        sized ? ['too-small', 'too-large', 'damaged', 'quality'] : ['damaged', 'quality'],
      )
      await user.click(screen.getByRole('radio', { name: 'Quality' }))
      const sub = screen.getByRole('group', { name: 'Quality: which fits best?' })
      expect(radios(sub)).toEqual(sized ? ['runs-small', 'stitching'] : ['stitching'])
    })
  })

  test('Continue without a reason says so and stays on the step', async () => {
    const { user, router, store } = renderReason('mug', [chosen('mug')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(continueButton())
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a reason to continue.')
    expect(screen.getByRole('radio', { name: 'Too small' })).toHaveFocus()
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))
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
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))

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
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'))
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
    const heading = await screen.findByRole('heading', { level: 1, name: 'Why are you returning the Ceramic Mug?' })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(screen.getByText('Item 2 of 2')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Arrived damaged' })).not.toBeChecked()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: 'Torn seam' })
  })

  test('the reason and comment are stored as they are given, so a reload of the step keeps them (docs/rules.md §16.4)', async () => {
    const { user, router, store } = renderReason('mug', [chosen('mug')])
    await screen.findByRole('heading', { level: 1 })
    await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: '' })
    await user.type(screen.getByRole('textbox', { name: 'Tell us more (required)' }), 'Chipped ')
    expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'damaged', comment: 'Chipped' })
    // Stored is not accepted: Continue still asks for what the reason needs.
    await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))
  })
})

describe('return reason: sub-reasons and photos', () => {
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
    const seen = {
      uploads: [] as { type: string | null; auth: string | null; size: number }[],
      previews: [] as string[],
    }
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
      await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))

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
      await waitFor(() => expect(router.state.location.pathname).toBe('/return-item/mug/return-reason'))
    })

    test('a reason that asks for a comment and a photo says both are missing at once, focus on the first', async () => {
      photoApi()
      const { user } = renderReason()
      await screen.findByRole('heading', { level: 1 })
      await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
      await user.click(continueButton())
      const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent)
      expect(alerts).toEqual(['Please tell us more about the reason to continue.', 'Add at least 1 photo to continue.'])
      const comment = screen.getByRole('textbox', { name: 'Tell us more (required)' })
      expect(comment).toHaveFocus()
      expect(comment).toBeInvalid()
      // Mending one leaves the other said.
      await user.type(comment, 'Chipped rim')
      expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
        'Add at least 1 photo to continue.',
      ])
      await user.click(continueButton())
      expect(fileInput()).toHaveFocus()
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

    test('a photo that arrives after the shopper chose a reason asking for none is kept for later, not with it', async () => {
      photoApi()
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      server.use(
        http.post('*/portal-registration/photos', async () => {
          await held
          return HttpResponse.json({ id: photoId(1), content_type: 'image/png', size: PNG.byteLength }, { status: 201 })
        }),
      )
      const { user, store } = renderReason()
      await screen.findByRole('heading', { level: 1 })
      await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
      await user.upload(fileInput(), photoFile())
      await user.click(screen.getByRole('radio', { name: 'Quality' }))
      await user.click(screen.getByRole('radio', { name: 'Loose stitching' }))
      release()
      await waitFor(() =>
        expect(Object.values(store.getState().portalApi.mutations).map((mutation) => mutation?.status)).toEqual([
          'fulfilled',
        ]),
      )
      expect(store.getState().returnFlow.items[0]!.reason).toEqual({ id: 'stitching', comment: '' })

      // Back to a reason that asks for a photo: the one uploaded counts for it.
      await user.click(screen.getByRole('radio', { name: 'Arrived damaged' }))
      expect(store.getState().returnFlow.items[0]!.reason).toEqual({
        id: 'damaged',
        comment: '',
        photoIds: [photoId(1)],
      })
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
      // The server's photo queue is full (503), or full of this shopper's photos (429): try again.
      [503, '“fake.png” could not be uploaded. Please try again.'],
      [429, '“fake.png” could not be uploaded. Please try again.'],
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
})
