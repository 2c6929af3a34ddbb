import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ReturnStatusItem } from '../../contract/api'
import type { Inspection, InspectionPreview, InspectionRequest, ReturnDetail } from '../../contract/staff'
import { server } from '../testing/server'
import { eur, returnDetail } from '../testing/staffReturn'
import { Console } from './Console'
import { makeConsoleStore } from './store'

const SESSION = { email: 'staff@demo.example', shop: 'demo', shops: ['demo'] }
const PHOTO_ID = 'k3J9dP0qLm2xYt7Rb5Nw1A'

const signedIn = () => [
  http.get('*/admin/api/session', () => HttpResponse.json(SESSION)),
  http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
]

const money = (amount: string) => ({
  shop_money: { amount, currency_code: 'EUR' },
  presentment_money: { amount, currency_code: 'EUR' },
})

const statusItem = (overrides: Partial<ReturnStatusItem> = {}): ReturnStatusItem => ({
  line_item_id: 'li-mug',
  title: 'Ceramic Mug',
  variant_title: null,
  quantity: 1,
  image_src: null,
  exchange_variant_title: null,
  keep: false,
  states: ['requested', 'in_transit', 'received', 'refunded'],
  state: 'in_transit',
  history: [{ state: 'requested', at: '2026-11-20T12:00:00.000Z' }],
  ...overrides,
})

const MUG = statusItem()
const SHIRT = statusItem({ line_item_id: 'li-shirt', title: 'Linen Shirt', variant_title: 'M' })
const TEE = statusItem({ line_item_id: 'li-tee', title: 'Basic Tee', keep: true, states: ['requested', 'refunded'] })
const SCARF = statusItem({ line_item_id: 'li-scarf', title: 'Wool Scarf', state: 'received' })
const SCARF_INSPECTED: Inspection = {
  line_item_id: 'li-scarf',
  condition: 'opened',
  disposition: 'refurbish',
  note: null,
  photos: [],
  deduction: null,
  restocked_variant: null,
  inspected_at: '2026-11-22T09:00:00.000Z',
  inspected_by: 'anna@demo.example',
}

/** #1001-R1 as the warehouse opens it: these items, these inspections, this review. */
function buildDetail({
  items = [MUG],
  inspections = [],
  review = null,
}: {
  items?: ReturnStatusItem[]
  inspections?: Inspection[]
  review?: 'pending' | 'approved' | 'rejected' | null
} = {}): ReturnDetail {
  const base = returnDetail()
  return returnDetail({
    summary: { ...base.summary, items: items.length, refund: eur('14.00'), state: 'in_transit', review },
    status: { ...base.status, items, refund: null },
    return_order: {
      id: 'r-1',
      name: '#1001-R1',
      status: 'requested',
      items: items.map((item) => ({
        line_item_id: item.line_item_id,
        title: item.title,
        variant_title: item.variant_title,
        quantity: item.quantity,
        reason_id: 'damaged',
        reason_label: 'Arrived damaged',
        comment: item.line_item_id === 'li-mug' ? 'Handle broken off' : null,
        exchange_variant_id: null,
        exchange_variant_title: null,
      })),
      refund_method: 'original_payment',
      refund_value: money('14.00'),
      store_credit_value: null,
      breakdown: {
        items_subtotal: money('11.76'),
        tax: money('2.24'),
        return_fee: money('0.00'),
        bonus: money('0.00'),
        upsell: money('0.00'),
        total: money('14.00'),
      },
      created_at: '2026-11-20T12:00:00.000Z',
    },
    timeline: [],
    review: review
      ? {
          state: review,
          flags: [{ rule: 'over_amount', message: 'Worth €250.00, over €200.00' }],
          answer_by: '2026-11-24',
          reason: review === 'rejected' ? 'Outside the policy' : null,
          decided_at: null,
          decided_by: null,
        }
      : null,
    inspections,
  })
}

const PREVIEW: InspectionPreview = {
  refund: {
    method: 'original_payment',
    before: { amount: '14.00', currency_code: 'EUR' },
    deductions: [
      {
        line_item_id: 'li-mug',
        title: 'Ceramic Mug',
        condition: 'damaged',
        percent: 50,
        amount: { amount: '7.00', currency_code: 'EUR' },
      },
    ],
    amount: { amount: '7.00', currency_code: 'EUR' },
    forgone: [],
  },
  restock: [{ line_item_id: 'li-shirt', variant: 'Linen Shirt · M' }],
  held: [],
  refunded_with: [],
}

function renderConsole(path: string) {
  window.history.pushState({}, '', path)
  return render(<Console store={makeConsoleStore()} />)
}

const codeField = () => screen.findByLabelText('Drop-off code or return number')
/** The scan screen's status region that says what was recorded. */
const recordedStatus = (heading: HTMLElement) => heading.closest<HTMLElement>('[role="status"]')!

beforeEach(() => localStorage.clear())

test('receive: the code field has the focus; a scanner’s fast code and Enter open the return it names', async () => {
  const asked: string[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/receive', ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('code') ?? '')
      return HttpResponse.json({ return_id: 'r-1', name: '#1001-R1' })
    }),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail())),
  )
  renderConsole('/admin/receive')
  const field = await codeField()
  await waitFor(() => expect(field).toHaveFocus())
  expect(screen.getByRole('link', { name: 'Receive' })).toHaveAttribute('aria-current', 'page')
  // A USB scanner: every key at once, then Enter.
  await userEvent.setup({ delay: null }).type(field, 'RB-7F3K9Q2M{Enter}')
  expect(await screen.findByRole('heading', { name: 'Receive #1001-R1', level: 1 })).toBeInTheDocument()
  expect(window.location.pathname).toBe('/admin/receive/r-1')
  expect(asked).toEqual(['RB-7F3K9Q2M'])
})

test('receive: an unknown code shows the server’s words in an alert, and keeps the code selected for the next scan', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/receive', () =>
      HttpResponse.json({ error: 'not_found', message: 'No return has the code RB-NOPE.' }, { status: 404 }),
    ),
  )
  renderConsole('/admin/receive')
  const field = await codeField()
  await userEvent.setup().type(field, 'RB-NOPE{Enter}')
  expect(await screen.findByRole('alert')).toHaveTextContent('No return has the code RB-NOPE.')
  expect(field).toHaveValue('RB-NOPE')
  expect(field).toHaveFocus()
  expect([(field as HTMLInputElement).selectionStart, (field as HTMLInputElement).selectionEnd]).toEqual([0, 7])
  expect(window.location.pathname).toBe('/admin/receive')
})

test('receive: without BarcodeDetector there is no camera button, and the screen says what works instead', async () => {
  server.use(...signedIn())
  renderConsole('/admin/receive')
  expect(await screen.findByText(/Scanning with the camera needs/)).toHaveTextContent('use a USB scanner')
  expect(screen.queryByRole('button', { name: 'Scan with camera' })).not.toBeInTheDocument()
})

/** A stand-in for the browser's BarcodeDetector: these formats, and these codes in every frame. */
function fakeDetector(formats: string[], codes: { rawValue: string }[]) {
  return class {
    static getSupportedFormats(): Promise<string[]> {
      return Promise.resolve(formats)
    }
    detect(): Promise<{ rawValue: string }[]> {
      return Promise.resolve(codes)
    }
  }
}

describe('with a camera and BarcodeDetector', () => {
  const stopTrack = jest.fn()
  const getUserMedia = jest.fn(() => Promise.resolve({ getTracks: () => [{ stop: stopTrack }] }))
  const play = jest.spyOn(HTMLMediaElement.prototype, 'play')
  beforeEach(() => {
    stopTrack.mockClear()
    getUserMedia.mockClear()
    play.mockResolvedValue(undefined)
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } })
  })
  afterEach(() => {
    delete (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector
    delete (navigator as { mediaDevices?: unknown }).mediaDevices
    play.mockReset()
  })

  test('receive: Scan with camera asks for the rear camera, reads the QR code, stops the camera and opens the return', async () => {
    Object.assign(globalThis, { BarcodeDetector: fakeDetector(['qr_code', 'ean_13'], [{ rawValue: ' RB-7F3K9Q2M ' }]) })
    const asked: string[] = []
    server.use(
      ...signedIn(),
      http.get('*/admin/api/receive', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('code') ?? '')
        return HttpResponse.json({ return_id: 'r-1', name: '#1001-R1' })
      }),
      http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail())),
    )
    renderConsole('/admin/receive')
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Scan with camera' }))
    expect(await screen.findByRole('heading', { name: 'Receive #1001-R1', level: 1 })).toBeInTheDocument()
    expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: { ideal: 'environment' } }, audio: false })
    expect(stopTrack).toHaveBeenCalledTimes(1)
    expect(asked).toEqual(['RB-7F3K9Q2M'])
  })

  test('receive: the camera stops on Stop camera, and on leaving the screen', async () => {
    Object.assign(globalThis, { BarcodeDetector: fakeDetector(['qr_code'], []) })
    server.use(...signedIn())
    const { unmount } = renderConsole('/admin/receive')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Scan with camera' }))
    expect(await screen.findByLabelText('Camera: hold the return’s QR code in the frame')).toBeInTheDocument()
    await waitFor(() => expect(play).toHaveBeenCalled())
    await user.click(screen.getByRole('button', { name: 'Stop camera' }))
    expect(stopTrack).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Scan with camera' })).toHaveFocus())

    await user.click(screen.getByRole('button', { name: 'Scan with camera' }))
    await waitFor(() => expect(play).toHaveBeenCalledTimes(2))
    unmount()
    expect(stopTrack).toHaveBeenCalledTimes(2)
  })
})

test('inspect: choices, a photo, Review shows the deductions and restock; Confirm posts them and goes back to the scan field, which says what was recorded', async () => {
  const photos: { lineItem: string | null; type: string | null; bytes: number }[] = []
  const previewed: InspectionRequest[] = []
  const inspected: InspectionRequest[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () =>
      HttpResponse.json(buildDetail({ items: [MUG, SHIRT, TEE, SCARF], inspections: [SCARF_INSPECTED] })),
    ),
    http.post('*/admin/api/returns/r-1/photos', async ({ request }) => {
      photos.push({
        lineItem: new URL(request.url).searchParams.get('line_item_id'),
        type: request.headers.get('content-type'),
        bytes: (await request.arrayBuffer()).byteLength,
      })
      return HttpResponse.json({
        id: PHOTO_ID,
        line_item_id: 'li-mug',
        url: `/admin/api/returns/r-1/photos/${PHOTO_ID}`,
      })
    }),
    http.post('*/admin/api/returns/r-1/inspection/preview', async ({ request }) => {
      previewed.push((await request.json()) as InspectionRequest)
      return HttpResponse.json(PREVIEW)
    }),
    http.post('*/admin/api/returns/r-1/inspection', async ({ request }) => {
      inspected.push((await request.json()) as InspectionRequest)
      return HttpResponse.json({})
    }),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup({ delay: null })
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  const shirt = screen.getByRole('group', { name: 'Linen Shirt · M' })
  expect(within(mug).getByText('Handle broken off')).toBeInTheDocument()

  await user.click(within(mug).getByRole('radio', { name: 'Damaged' }))
  // Only "As new" suggests restock: a damaged item's fate is chosen, not assumed.
  for (const name of ['Restock', 'Refurbish', 'Dispose'])
    expect(within(mug).getByRole('radio', { name })).not.toBeChecked()
  await user.click(within(mug).getByRole('radio', { name: 'Dispose' }))
  await user.type(within(mug).getByLabelText('Note (optional)'), 'Glaze cracked')
  await user.upload(
    within(mug).getByLabelText('Add a photo'),
    new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'mug.jpg', { type: 'image/jpeg' }),
  )
  expect(await within(mug).findByRole('img', { name: 'Photo 1 of Ceramic Mug' })).toHaveAttribute(
    'src',
    `/admin/api/returns/r-1/photos/${PHOTO_ID}`,
  )
  expect(photos).toEqual([{ lineItem: 'li-mug', type: 'image/jpeg', bytes: 7 }])

  await user.click(within(shirt).getByRole('radio', { name: 'As new' }))
  expect(within(shirt).getByRole('radio', { name: 'Restock' })).toBeChecked()
  expect(screen.getByRole('checkbox', { name: 'Issue the refund now' })).toBeChecked()

  await user.click(screen.getByRole('button', { name: 'Review' }))
  const preview = await screen.findByRole('region', { name: 'Check before you confirm' })
  const row = within(within(preview).getByRole('table', { name: 'Deductions' })).getByRole('row', {
    name: /Ceramic Mug/,
  })
  expect(row).toHaveTextContent('Damaged')
  expect(row).toHaveTextContent('50%')
  expect(row).toHaveTextContent('−€7.00')
  expect(within(preview).getByText('Refund before deductions').nextSibling).toHaveTextContent('€14.00')
  expect(within(preview).getByText('Refund after deductions').nextSibling).toHaveTextContent('€7.00')
  expect(within(preview).getByRole('list', { name: 'Restocked' })).toHaveTextContent('Linen Shirt · M')

  const expected: InspectionRequest = {
    items: [
      {
        line_item_id: 'li-mug',
        condition: 'damaged',
        disposition: 'dispose',
        note: 'Glaze cracked',
        photo_ids: [PHOTO_ID],
      },
      { line_item_id: 'li-shirt', condition: 'as_new', disposition: 'restock' },
    ],
    refund: true,
  }
  expect(previewed).toEqual([expected])

  await user.click(within(preview).getByRole('button', { name: 'Confirm' }))
  // The next parcel is scanned without a key pressed: the field has the focus.
  await waitFor(async () => expect(await codeField()).toHaveFocus())
  expect(window.location.pathname).toBe('/admin/receive')
  const said = recordedStatus(await screen.findByRole('heading', { name: 'Inspection recorded' }))
  expect(said).toHaveTextContent('2 items of #1001-R1 inspected, and the refund issued.')
  expect(inspected).toEqual([expected])
  expect(within(said).getByRole('link', { name: 'Open #1001-R1' })).toHaveAttribute('href', '/admin/returns/r-1')
})

test('inspect: items kept by the shopper or inspected already are listed without inputs', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () =>
      HttpResponse.json(buildDetail({ items: [MUG, TEE, SCARF], inspections: [SCARF_INSPECTED] })),
    ),
  )
  renderConsole('/admin/receive/r-1')
  expect(await screen.findByRole('group', { name: 'Ceramic Mug' })).toBeInTheDocument()
  expect(screen.queryByRole('group', { name: 'Basic Tee' })).not.toBeInTheDocument()
  expect(screen.queryByRole('group', { name: 'Wool Scarf' })).not.toBeInTheDocument()
  const settled = screen.getByRole('list', { name: 'Items not to inspect' })
  expect(within(settled).getByText('Basic Tee').parentElement).toHaveTextContent('Kept by the shopper: not sent back.')
  expect(within(settled).getByText('Wool Scarf').parentElement).toHaveTextContent(
    'Inspected: opened, refurbish (anna@demo.example).',
  )
  expect(within(settled).queryByRole('radio')).not.toBeInTheDocument()
  expect(screen.getAllByRole('radio', { name: 'As new' })).toHaveLength(1)
})

test('inspect: a return waiting for review cannot be received, and links to the return', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail({ review: 'pending' }))),
  )
  renderConsole('/admin/receive/r-1')
  expect(await screen.findByRole('heading', { name: 'This return waits for review' })).toBeInTheDocument()
  expect(screen.getByText(/cannot be received until staff approve it/)).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Open the return' })).toHaveAttribute('href', '/admin/returns/r-1')
  expect(screen.queryByRole('radio')).not.toBeInTheDocument()
  expect(screen.queryByRole('button', { name: 'Review' })).not.toBeInTheDocument()
})

test('inspect: an unfinished item is named before anything is sent; a refused confirm shows the server’s words and keeps the form', async () => {
  const inspected: InspectionRequest[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail())),
    http.post('*/admin/api/returns/r-1/inspection/preview', () =>
      HttpResponse.json({ refund: null, restock: [], held: [], refunded_with: [] }),
    ),
    http.post('*/admin/api/returns/r-1/inspection', async ({ request }) => {
      inspected.push((await request.json()) as InspectionRequest)
      return HttpResponse.json(
        { error: 'already_inspected', message: 'Ceramic Mug was inspected a moment ago by anna@demo.example.' },
        { status: 409 },
      )
    }),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup()
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  await user.click(within(mug).getByRole('radio', { name: 'Opened' }))
  await user.click(screen.getByRole('button', { name: 'Review' }))
  const problem = await screen.findByRole('alert')
  expect(problem).toHaveTextContent('Choose the disposition of Ceramic Mug')
  await waitFor(() => expect(problem).toHaveFocus())

  await user.click(within(mug).getByRole('radio', { name: 'Refurbish' }))
  await user.click(screen.getByRole('checkbox', { name: 'Issue the refund now' }))
  await user.click(screen.getByRole('button', { name: 'Review' }))
  const preview = await screen.findByRole('region', { name: 'Check before you confirm' })
  expect(within(preview).getByText('This return refunds nothing (an exchange), so nothing is deducted.')).toBeVisible()
  expect(within(preview).getByText('Nothing is restocked.')).toBeVisible()
  await user.click(within(preview).getByRole('button', { name: 'Confirm' }))
  expect(await within(preview).findByRole('alert')).toHaveTextContent(
    'Ceramic Mug was inspected a moment ago by anna@demo.example.',
  )
  expect(inspected).toEqual([
    { items: [{ line_item_id: 'li-mug', condition: 'opened', disposition: 'refurbish' }], refund: false },
  ])
  expect(within(mug).getByRole('radio', { name: 'Opened' })).toBeChecked()
  expect(within(mug).getByRole('radio', { name: 'Refurbish' })).toBeChecked()
  expect(within(preview).getByRole('button', { name: 'Confirm' })).toBeEnabled()
})

test('inspect: a missing item asks no disposition; the preview says a held exchange waits, and what else is refunded', async () => {
  const previewed: InspectionRequest[] = []
  const swap = statusItem({
    line_item_id: 'li-shirt',
    title: 'Linen Shirt',
    variant_title: 'M',
    exchange_variant_title: 'L',
  })
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail({ items: [MUG, swap, TEE] }))),
    http.post('*/admin/api/returns/r-1/inspection/preview', async ({ request }) => {
      previewed.push((await request.json()) as InspectionRequest)
      return HttpResponse.json({
        ...PREVIEW,
        restock: [],
        held: [
          { line_item_id: 'li-shirt', title: 'Linen Shirt · M', condition: 'wrong_item', exchange_variant_title: 'L' },
        ],
        refunded_with: ['Basic Tee'],
      } satisfies InspectionPreview)
    }),
    http.post('*/admin/api/returns/r-1/inspection', () => HttpResponse.json([])),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup({ delay: null })
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  const shirt = screen.getByRole('group', { name: 'Linen Shirt · M' })
  await user.click(within(mug).getByRole('radio', { name: 'Missing from the parcel' }))
  expect(within(mug).queryByRole('group', { name: 'Disposition' })).not.toBeInTheDocument()
  expect(within(mug).getByText(/neither restocked nor refunded/)).toBeInTheDocument()
  await user.click(within(shirt).getByRole('radio', { name: 'Wrong item' }))
  await user.click(within(shirt).getByRole('radio', { name: 'Dispose' }))
  await user.click(screen.getByRole('button', { name: 'Review' }))
  const preview = await screen.findByRole('region', { name: 'Check before you confirm' })
  expect(previewed).toEqual([
    {
      items: [
        { line_item_id: 'li-mug', condition: 'missing' },
        { line_item_id: 'li-shirt', condition: 'wrong_item', disposition: 'dispose' },
      ],
      refund: true,
    },
  ])
  const held = within(preview).getByRole('note', { name: 'Exchanges that wait for your decision' })
  expect(held).toHaveTextContent('Linen Shirt · M came back as “wrong item”: its new item (L) is not sent.')
  expect(within(preview).getByText('Refunded with them, so the return is done: Basic Tee.')).toBeInTheDocument()
  await user.click(within(preview).getByRole('button', { name: 'Confirm' }))
  expect(recordedStatus(await screen.findByRole('heading', { name: 'Inspection recorded' }))).toHaveTextContent(
    '2 items of #1001-R1 inspected, and the refund issued. Linen Shirt · M waits for your decision on the return’s page: no new item is sent.',
  )
})

test('inspect: store credit issued at submission is said, with what the deductions would have taken', async () => {
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail({ items: [MUG] }))),
    http.post('*/admin/api/returns/r-1/inspection/preview', () =>
      HttpResponse.json({
        refund: {
          method: 'store_credit',
          before: { amount: '15.40', currency_code: 'EUR' },
          deductions: [],
          amount: { amount: '15.40', currency_code: 'EUR' },
          issued_at: '2026-11-20T12:00:00.000Z',
          forgone: [
            {
              line_item_id: 'li-mug',
              title: 'Ceramic Mug',
              condition: 'damaged',
              percent: 50,
              amount: { amount: '7.00', currency_code: 'EUR' },
            },
          ],
        },
        restock: [],
        held: [],
        refunded_with: [],
      } satisfies InspectionPreview),
    ),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup({ delay: null })
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  await user.click(within(mug).getByRole('radio', { name: 'Damaged' }))
  await user.click(within(mug).getByRole('radio', { name: 'Dispose' }))
  await user.click(screen.getByRole('button', { name: 'Review' }))
  const preview = await screen.findByRole('region', { name: 'Check before you confirm' })
  expect(preview).toHaveTextContent(
    'Store credit of €15.40 was issued when the return was submitted (20 Nov 2026). Nothing is deducted from it now.',
  )
  expect(preview).toHaveTextContent(
    'The shop’s deductions would have taken €7.00 for Ceramic Mug (damaged, 50%). To recover it, reduce the gift card in the shop’s own system.',
  )
  expect(preview).not.toHaveTextContent('Issued now')
})

test('inspect: each item starts as new and restocked, the first one’s condition focused; one is left for later by its named button', async () => {
  const previewed: InspectionRequest[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail({ items: [MUG, SHIRT] }))),
    http.post('*/admin/api/returns/r-1/inspection/preview', async ({ request }) => {
      previewed.push((await request.json()) as InspectionRequest)
      return HttpResponse.json({ ...PREVIEW, restock: [] } satisfies InspectionPreview)
    }),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup({ delay: null })
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  const shirt = screen.getByRole('group', { name: 'Linen Shirt · M' })
  await waitFor(() => expect(within(mug).getByRole('radio', { name: 'As new' })).toHaveFocus())
  for (const item of [mug, shirt]) {
    expect(within(item).getByRole('radio', { name: 'As new' })).toBeChecked()
    expect(within(item).getByRole('radio', { name: 'Restock' })).toBeChecked()
  }
  // The arrow keys change the condition; "As new"'s restock goes with it.
  await user.keyboard('{ArrowDown}')
  expect(within(mug).getByRole('radio', { name: 'Opened' })).toBeChecked()
  expect(within(mug).getByRole('radio', { name: 'Restock' })).not.toBeChecked()
  await user.click(within(mug).getByRole('radio', { name: 'Refurbish' }))

  await user.click(within(shirt).getByRole('button', { name: 'Leave for later (Linen Shirt · M)' }))
  expect(within(shirt).getByRole('radio', { name: 'As new' })).not.toBeChecked()
  expect(within(shirt).getByText(/Not inspected now/)).toBeInTheDocument()
  await user.click(screen.getByRole('button', { name: 'Review' }))
  const preview = await screen.findByRole('region', { name: 'Check before you confirm' })
  expect(previewed).toEqual([
    { items: [{ line_item_id: 'li-mug', condition: 'opened', disposition: 'refurbish' }], refund: true },
  ])
  expect(within(preview).getByText('Left for later, not inspected now: Linen Shirt · M.')).toBeInTheDocument()
})

test('inspect: what was chosen survives a session that ends, comes back after signing in, and is gone after sign-out', async () => {
  let live = true
  server.use(
    http.get('*/admin/api/session', () =>
      live ? HttpResponse.json(SESSION) : HttpResponse.json({ error: 'not_signed_in' }, { status: 401 }),
    ),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.post('*/admin/api/session', () => {
      live = true
      return HttpResponse.json(SESSION)
    }),
    http.delete('*/admin/api/session', () => {
      live = false
      return new HttpResponse(null, { status: 204 })
    }),
    http.get('*/admin/api/returns/r-1', () =>
      live ? HttpResponse.json(buildDetail({ items: [MUG, SHIRT] })) : HttpResponse.json({}, { status: 401 }),
    ),
    // Idle too long: the session ended while the parcel was being looked at.
    http.post('*/admin/api/returns/r-1/inspection/preview', () => {
      live = false
      return HttpResponse.json({ error: 'not_signed_in' }, { status: 401 })
    }),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup({ delay: null })
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  await user.click(within(mug).getByRole('radio', { name: 'Damaged' }))
  await user.click(within(mug).getByRole('radio', { name: 'Dispose' }))
  await user.type(within(mug).getByLabelText('Note (optional)'), 'Glaze cracked')
  await user.click(
    within(screen.getByRole('group', { name: 'Linen Shirt · M' })).getByRole('button', { name: /^Leave for later/ }),
  )
  await user.click(screen.getByRole('button', { name: 'Review' }))

  await user.type(await screen.findByLabelText('E-mail'), SESSION.email)
  await user.type(screen.getByLabelText('Password'), 'correct horse battery')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
  const again = await screen.findByRole('group', { name: 'Ceramic Mug' })
  expect(within(again).getByRole('radio', { name: 'Damaged' })).toBeChecked()
  expect(within(again).getByRole('radio', { name: 'Dispose' })).toBeChecked()
  expect(within(again).getByLabelText('Note (optional)')).toHaveValue('Glaze cracked')
  expect(
    within(screen.getByRole('group', { name: 'Linen Shirt · M' })).getByRole('radio', { name: 'As new' }),
  ).not.toBeChecked()

  // Signing out on purpose: the next person at this computer finds nothing of it.
  await user.click(screen.getByRole('button', { name: 'Sign out' }))
  expect(await screen.findByLabelText('Password')).toBeInTheDocument()
  expect(Object.keys(localStorage)).toEqual([])
})

test('inspect: a draft is another staff member’s own: signed in as someone else, the form starts afresh', async () => {
  localStorage.setItem(
    `rebound-receiving:${JSON.stringify(['anna@demo.example', 'demo', 'r-1'])}`,
    JSON.stringify({
      saved_at: Date.now(),
      value: { 'li-mug': { condition: 'damaged', disposition: 'dispose', note: 'x', photos: [] } },
    }),
  )
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail())),
  )
  renderConsole('/admin/receive/r-1')
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  expect(within(mug).getByRole('radio', { name: 'As new' })).toBeChecked()
  expect(within(mug).getByLabelText('Note (optional)')).toHaveValue('')
})

/** Two shirts in M returned on one line: each is inspected on its own (decision 0085). */
const SHIRTS = { ...SHIRT, quantity: 2 }
const unitGroup = (n: number) => screen.getByRole('group', { name: `Unit ${n} of 2 (Linen Shirt · M)` })

test('inspect: a line of two units shows one condition group a unit, each as new and restocked; Confirm sends each unit and goes back to the scan field', async () => {
  const previewed: InspectionRequest[] = []
  const inspected: InspectionRequest[] = []
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail({ items: [MUG, SHIRTS] }))),
    http.post('*/admin/api/returns/r-1/inspection/preview', async ({ request }) => {
      previewed.push((await request.json()) as InspectionRequest)
      return HttpResponse.json(PREVIEW)
    }),
    http.post('*/admin/api/returns/r-1/inspection', async ({ request }) => {
      inspected.push((await request.json()) as InspectionRequest)
      return HttpResponse.json([])
    }),
  )
  renderConsole('/admin/receive/r-1')
  const user = userEvent.setup({ delay: null })
  const mug = await screen.findByRole('group', { name: 'Ceramic Mug' })
  // One unit looks as it always did: no unit groups.
  expect(within(mug).queryByRole('group', { name: /^Unit/ })).not.toBeInTheDocument()
  for (const n of [1, 2]) {
    expect(within(unitGroup(n)).getByRole('radio', { name: 'As new' })).toBeChecked()
    expect(within(unitGroup(n)).getByRole('radio', { name: 'Restock' })).toBeChecked()
  }
  await user.click(within(unitGroup(2)).getByRole('radio', { name: 'Damaged' }))
  // The other unit keeps its own choice.
  expect(within(unitGroup(1)).getByRole('radio', { name: 'As new' })).toBeChecked()
  await user.click(screen.getByRole('button', { name: 'Review' }))
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'Choose the disposition of Linen Shirt · M, unit 2 of 2: restock, refurbish or dispose.',
  )
  await user.click(within(unitGroup(2)).getByRole('radio', { name: 'Dispose' }))
  await user.click(screen.getByRole('button', { name: 'Review' }))
  const preview = await screen.findByRole('region', { name: 'Check before you confirm' })
  const expected: InspectionRequest = {
    items: [
      { line_item_id: 'li-mug', condition: 'as_new', disposition: 'restock' },
      {
        line_item_id: 'li-shirt',
        units: [
          { condition: 'as_new', disposition: 'restock' },
          { condition: 'damaged', disposition: 'dispose' },
        ],
      },
    ],
    refund: true,
  }
  expect(previewed).toEqual([expected])
  await user.click(within(preview).getByRole('button', { name: 'Confirm' }))
  await waitFor(async () => expect(await codeField()).toHaveFocus())
  expect(inspected).toEqual([expected])
})

test('inspect: a draft kept before units were gives each unit the line’s choice', async () => {
  localStorage.setItem(
    `rebound-receiving:${JSON.stringify([SESSION.email, 'demo', 'r-1'])}`,
    JSON.stringify({
      saved_at: Date.now(),
      value: { 'li-shirt': { condition: 'opened', disposition: 'refurbish', note: 'Creased', photos: [] } },
    }),
  )
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () => HttpResponse.json(buildDetail({ items: [SHIRTS] }))),
  )
  renderConsole('/admin/receive/r-1')
  const shirt = await screen.findByRole('group', { name: 'Linen Shirt · M' })
  for (const n of [1, 2]) {
    expect(within(unitGroup(n)).getByRole('radio', { name: 'Opened' })).toBeChecked()
    expect(within(unitGroup(n)).getByRole('radio', { name: 'Refurbish' })).toBeChecked()
  }
  expect(within(shirt).getByLabelText('Note (optional)')).toHaveValue('Creased')
})

test('inspect: a line inspected unit by unit is listed with each unit’s condition', async () => {
  const unit = (number: number, condition: Inspection['condition']): Inspection => ({
    ...SCARF_INSPECTED,
    unit: { number, of: 2 },
    condition,
    disposition: condition === 'as_new' ? 'restock' : 'dispose',
  })
  server.use(
    ...signedIn(),
    http.get('*/admin/api/returns/r-1', () =>
      HttpResponse.json(
        buildDetail({ items: [MUG, { ...SCARF, quantity: 2 }], inspections: [unit(1, 'as_new'), unit(2, 'damaged')] }),
      ),
    ),
  )
  renderConsole('/admin/receive/r-1')
  const settled = await screen.findByRole('list', { name: 'Items not to inspect' })
  expect(within(settled).getByText('Wool Scarf').parentElement).toHaveTextContent(
    'Inspected: unit 1: as new, restock; unit 2: damaged, dispose (anna@demo.example).',
  )
})
