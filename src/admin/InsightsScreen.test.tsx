import { render, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { Insights } from '../../contract/staff'
import { server } from '../testing/server'
import { Console } from './Console'
import { makeConsoleStore } from './store'

/** Insights' money: summed in minor units, once, and written with the shop currency's decimals. */

function renderInsights(insights: Insights, shop = 'demo') {
  server.use(
    http.get('*/admin/api/session', () => HttpResponse.json({ email: 'staff@shop.example', shop, shops: [shop] })),
    http.get('*/admin/api/shop', () => HttpResponse.json({ shop, reasons: [] })),
    http.get('*/admin/api/reviews', () => HttpResponse.json({ returns: [], total: 0 })),
    http.get('*/admin/api/insights', () => HttpResponse.json(insights)),
  )
  window.history.pushState({}, '', '/admin/insights')
  return render(<Console store={makeConsoleStore()} />)
}

/** A table row by its words, a no-break space (KWD 1.005) read as a space. */
const rowNamed = (table: HTMLElement, text: string) =>
  within(table).getByRole('row', { name: (name) => name.replace(/\u00a0/g, ' ') === text })

const period = { from: '2026-10-22', to: '2026-11-20', returns: 2 }

test('insights in a three-decimal currency: every figure keeps its third decimal, and the kept total is exact', async () => {
  const kwd = (amount: string) => ({ amount, currency_code: 'KWD' })
  renderInsights({
    ...period,
    reasons: [{ reason_id: 'too_small', label: 'Too small', count: 1, value: kwd('1.005') }],
    products: [{ title: 'Classic Tee', count: 1, value: kwd('1.005') }],
    outcomes: { exchanges: kwd('1.005'), upsells: kwd('0.001'), store_credit: kwd('0.000'), refunded: kwd('2.012') },
  })
  const summary = await screen.findByText(/kept by the shop \(/)
  expect(summary).toHaveAttribute('role', 'status')
  expect(summary.textContent?.replace(/\u00a0/g, ' ')).toBe(
    '2 returns from 22 Oct 2026 to 20 Nov 2026. Settled in that time: KWD 1.006 kept by the shop (33%), KWD 2.012 refunded.',
  )
  const reasons = screen.getByRole('table', { name: 'Return reasons, by units returned' })
  expect(rowNamed(reasons, 'Too small 1 KWD 1.005')).toBeInTheDocument()
  const revenue = screen.getByRole('table', { name: 'Revenue kept by the shop and refunded' })
  expect(rowNamed(revenue, 'Kept by the shop KWD 1.006')).toBeInTheDocument()
  expect(rowNamed(revenue, 'Refunded KWD 2.012')).toBeInTheDocument()
})

test('insights in yen: no decimals anywhere', async () => {
  const jpy = (amount: string) => ({ amount, currency_code: 'JPY' })
  renderInsights({
    ...period,
    reasons: [],
    products: [],
    outcomes: { exchanges: jpy('1500'), upsells: jpy('0'), store_credit: jpy('500'), refunded: jpy('2000') },
  })
  const revenue = await screen.findByRole('table', { name: 'Revenue kept by the shop and refunded' })
  expect(rowNamed(revenue, 'Kept by the shop ¥2,000')).toBeInTheDocument()
  expect(rowNamed(revenue, 'Store credit ¥500')).toBeInTheDocument()
})
