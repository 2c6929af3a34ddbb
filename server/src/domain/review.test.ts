import type { ReturnRecord } from './returns'
import { shopperReview, waitsOrRejected } from './review'

const DECIDED = new Date('2026-11-21T09:30:00.000Z')

const stored = (overrides: Partial<ReturnRecord>): ReturnRecord => ({
  id: 'r-1',
  order_id: 'o-1',
  name: '#1001-R1',
  request_hash: null,
  return_order: null,
  created_at: new Date('2026-11-20T12:00:00.000Z'),
  review: null,
  review_flags: null,
  review_answer_by: null,
  review_reason: null,
  reviewed_at: null,
  reviewed_by: null,
  ...overrides,
})

describe('a review (docs/lifecycle.md)', () => {
  test.each([
    { review: null, label: true },
    { review: 'pending', label: false },
    { review: 'approved', label: true },
    { review: 'rejected', label: false },
  ] as const)('review $review: a label and moves on: $label', ({ review, label }) => {
    expect(waitsOrRejected({ review })).toBe(!label)
  })

  test.each([
    { name: 'never flagged', record: {}, shown: {} },
    {
      name: 'waiting',
      record: { review: 'pending', review_answer_by: '2026-11-24' },
      shown: { review: { state: 'pending', answer_by: '2026-11-24' } },
    },
    {
      name: 'approved',
      record: { review: 'approved', reviewed_at: DECIDED, reviewed_by: 'staff@demo.example' },
      shown: { review: { state: 'approved', decided_at: DECIDED.toISOString() } },
    },
    {
      name: 'rejected, with the staff’s reason (and never who)',
      record: { review: 'rejected', review_reason: 'Worn', reviewed_at: DECIDED, reviewed_by: 'staff@demo.example' },
      shown: { review: { state: 'rejected', reason: 'Worn', decided_at: DECIDED.toISOString() } },
    },
  ] as const)('the shopper reads: $name', ({ record, shown }) => {
    expect(shopperReview(stored(record))).toEqual(shown)
  })
})
