import { i18n } from '@lingui/core'
import type { RefundTiming } from '../../contract/api'
import { activateLocale, withFlowWords } from '../i18n/i18n'
import type { Translate } from '../i18n/useT'
import { countedTiming, formatDay, refundWhen } from './refundTiming'

const t: Translate = (id, values) => i18n._(id, values)
const timing = (
  from_days: number,
  to_days: number,
  after: RefundTiming['after'] = 'receipt',
  business_days = true,
): RefundTiming => ({ from_days, to_days, business_days, after })

describe('refundWhen', () => {
  beforeAll(async () => {
    await withFlowWords(Promise.resolve(null))
    await activateLocale('en')
  })

  test.each([
    ['at once on submit', timing(0, 0, 'submit'), 'at once, when you submit your return'],
    ['at once on receipt', timing(0, 0), 'as soon as we receive your items'],
    ['one business day', timing(1, 1), '1 business day after we receive your items'],
    ['a range of business days', timing(5, 10), '5–10 business days after we receive your items'],
    ['a range ending at 1 is plural', timing(0, 1), '0–1 business days after we receive your items'],
    ['calendar days after submit', timing(3, 3, 'submit', false), '3 days after you submit your return'],
    ['one calendar day', timing(1, 1, 'submit', false), '1 day after you submit your return'],
  ])('%s', (_name, value, expected) => {
    expect(refundWhen(value, t, 'en')).toBe(expected)
  })

  test.each([
    ['de', timing(5, 10), '5–10 Werktage nach Eingang Ihrer Artikel'],
    ['de', timing(1, 1), '1 Werktag nach Eingang Ihrer Artikel'],
    ['fr', timing(5, 10), '5–10 jours ouvrés après réception de vos articles'],
    ['es', timing(0, 0, 'submit'), 'al instante, al enviar su devolución'],
  ])('in %s: %j', async (locale, value, expected) => {
    await activateLocale(locale as 'de')
    expect(refundWhen(value, t, locale)).toBe(expected)
    await activateLocale('en')
  })
})

test('formatDay names the calendar day itself, whatever the time zone', () => {
  expect(formatDay('2026-11-27', 'en')).toBe('November 27, 2026')
  expect(formatDay('2026-11-27', 'de')).toBe('27. November 2026')
  expect(formatDay('not a day', 'en')).toBe('not a day')
})

test.each([
  ['every refunded item kept: counts from the submission', [{ keep: true, exchange_variant_id: null }], 'submit'],
  [
    'kept beside an exchange: still from the submission',
    [
      { keep: true, exchange_variant_id: null },
      { keep: false, exchange_variant_id: 'v' },
    ],
    'submit',
  ],
  [
    'one refunded item sent back: from receipt',
    [
      { keep: true, exchange_variant_id: null },
      { keep: false, exchange_variant_id: null },
    ],
    'receipt',
  ],
  ['exchanges only: as the shop set it', [{ keep: false, exchange_variant_id: 'v' }], 'receipt'],
  ['a return from before the flag: as the shop set it', [{ exchange_variant_id: null }], 'receipt'],
] as const)('countedTiming: %s', (_name, items, after) => {
  expect(countedTiming({ from_days: 5, to_days: 10, business_days: true, after: 'receipt' }, items).after).toBe(after)
})
