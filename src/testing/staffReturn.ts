import type { ReturnDetail } from '../../contract/staff'

/** The console's tests' return (src/admin/*.test.tsx), as GET /admin/api/returns/{id} answers it. */

export const eur = (amount: string) => ({ amount, currency_code: 'EUR' })

/** #1001-R1: a mug (refund) and a tee (refund), both still to be sent back. */
export function returnDetail(
  overrides: Partial<ReturnDetail> = {},
  state: 'requested' | 'received' = 'requested',
): ReturnDetail {
  const item = (id: string, title: string, variant: string | null) => ({
    line_item_id: id,
    title,
    variant_title: variant,
    quantity: 1,
    image_src: null,
    exchange_variant_title: null,
    keep: false,
    states: ['requested' as const, 'in_transit' as const, 'received' as const, 'refunded' as const],
    state,
    history: [{ state: 'requested' as const, at: '2026-11-20T12:00:00.000Z' }],
  })
  return {
    summary: {
      id: 'r-1',
      name: '#1001-R1',
      order_name: '#1001',
      email: 'jane@example.com',
      created_at: '2026-11-20T12:00:00.000Z',
      items: 2,
      outcome: 'refund',
      refund: eur('39.00'),
      state,
      review: overrides.review?.state ?? null,
    },
    status: {
      return_id: 'r-1',
      return_name: '#1001-R1',
      created_at: '2026-11-20T12:00:00.000Z',
      items: [item('li-mug', 'Ceramic Mug', null), item('li-tee', 'Classic Tee', 'M')],
      refund: {
        method: 'original_payment',
        amount: eur('39.00'),
        timing: null,
        expected: null,
      },
      label: null,
      address: { name: 'Returns', line1: 'Hafenstraße 12', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
    },
    return_order: null,
    photos: [],
    timeline: [
      {
        at: '2026-11-20T12:00:00.000Z',
        kind: 'created',
        state: 'requested',
        items: ['Ceramic Mug', 'Classic Tee'],
        actor: 'shopper',
        note: null,
      },
    ],
    review: null,
    inspections: [],
    held: [],
    links: { status: null, label: null },
    ended: null,
    ...overrides,
  }
}
