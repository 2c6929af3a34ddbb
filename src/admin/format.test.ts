import { timingText } from './format'

test.each([
  [
    { from_days: 5, to_days: 10, business_days: true, after: 'receipt' as const },
    '5–10 business days after the parcel arrives',
  ],
  [{ from_days: 1, to_days: 1, business_days: false, after: 'submit' as const }, '1 day after the return is submitted'],
  [{ from_days: 3, to_days: 3, business_days: false, after: 'receipt' as const }, '3 days after the parcel arrives'],
  [
    { from_days: 0, to_days: 0, business_days: true, after: 'submit' as const },
    'At once, when the return is submitted',
  ],
  [{ from_days: 0, to_days: 0, business_days: false, after: 'receipt' as const }, 'At once, when the parcel arrives'],
])('the shop’s timing %j reads “%s” to staff', (timing, words) => {
  expect(timingText(timing)).toBe(words)
})
