import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReturnRequest } from '../../../contract/api'
import { buildFlow, buildLineItem, buildOrder, buildQuote } from '../../testing/builders'
import { renderPortal } from '../../testing/renderWithProviders'
import { server } from '../../testing/server'

const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const order = buildOrder({
  line_items: [mug],
  token: 'jane-token',
  return_reasons: [
    {
      id: 'not-as-described',
      label: 'Not as described',
      comment_required: false,
      children: [{ id: 'wrong-item', label: 'Wrong item sent', comment_required: false, photos_required: 1 }],
    },
  ],
})
const photoIds = ['photoAAAAAAAAAAAAAAAAA', 'photoBBBBBBBBBBBBBBBBB']
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function api() {
  const seen = { quotes: [] as ReturnRequest[], previews: [] as string[] }
  server.use(
    http.post('*/portal-registration/returns/quote', async ({ request }) => {
      seen.quotes.push((await request.json()) as ReturnRequest)
      return HttpResponse.json(buildQuote('14.00'))
    }),
    http.get('*/portal-registration/photos/:id', ({ params, request }) => {
      seen.previews.push(`${String(params.id)} ${request.headers.get('authorization')}`)
      return new HttpResponse(PNG, { headers: { 'content-type': 'image/png' } })
    }),
  )
  return seen
}

const flow = (readOnly = false) =>
  buildFlow({
    order,
    readOnly,
    refundMethod: 'original_payment',
    items: [{ lineItemId: 'mug', quantity: 1, reason: { id: 'wrong-item', comment: '', photoIds }, exchange: null }],
  })

describe('confirm with evidence', () => {
  test('names the sub-reason under its reason, previews the photos and sends their ids with the request', async () => {
    const seen = api()
    renderPortal({ route: '/confirm', preloadedState: { returnFlow: flow() } })
    const item = (await screen.findAllByRole('listitem')).find((candidate) =>
      candidate.textContent?.includes('Ceramic Mug'),
    )!
    expect(item).toHaveTextContent('Reason: Not as described: Wrong item sent')
    const photos = within(item).getByRole('group', { name: 'Your photos of the Ceramic Mug' })
    await waitFor(() =>
      expect(within(photos).getByRole('img', { name: 'Photo 2 of the Ceramic Mug' })).toHaveAttribute(
        'src',
        expect.stringMatching(/^data:image\/png;base64,/),
      ),
    )
    expect(seen.previews.sort()).toEqual(photoIds.map((id) => `${id} Bearer jane-token`))
    await waitFor(() =>
      expect(seen.quotes.at(-1)?.items[0]).toEqual({
        line_item_id: 'mug',
        quantity: 1,
        reason_id: 'wrong-item',
        exchange_variant_id: null,
        photo_ids: photoIds,
      }),
    )
  })

  test('a support replay shows where the photos are without fetching them', async () => {
    const seen = api()
    renderPortal({ route: '/confirm', preloadedState: { returnFlow: flow(true) } })
    const photos = await screen.findByRole('group', { name: 'Your photos of the Ceramic Mug' })
    expect(
      within(photos)
        .getAllByRole('img')
        .map((image) => [image.tagName, image.getAttribute('aria-label')]),
    ).toEqual([
      ['SPAN', 'Photo 1 of the Ceramic Mug'],
      ['SPAN', 'Photo 2 of the Ceramic Mug'],
    ])
    await waitFor(() => expect(seen.quotes.length).toBeGreaterThan(0))
    expect(seen.previews).toEqual([])
  })
})
