import type { MoneyBag, RefundBreakdown } from '../../api/contract'
import { formatMoney } from '../../components/format'

const isZero = (money: MoneyBag) => Number(money.presentment_money.amount) === 0

/** The server's refund breakdown; bonus and new item only when they apply. */
export function Breakdown({ breakdown, locale }: { breakdown: RefundBreakdown; locale: string }) {
  const amount = (money: MoneyBag, sign = '') => `${sign}${formatMoney(money.presentment_money, locale)}`
  const rows: [string, string][] = [
    ['Items', amount(breakdown.items_subtotal)],
    ['Tax', amount(breakdown.tax)],
    ['Return fee', isZero(breakdown.return_fee) ? 'Free' : amount(breakdown.return_fee, '−')],
  ]
  if (!isZero(breakdown.bonus)) rows.push(['Store credit bonus', amount(breakdown.bonus, '+')])
  if (!isZero(breakdown.upsell)) rows.push(['New item', amount(breakdown.upsell, '−')])
  return (
    <dl className="confirm__breakdown">
      {rows.map(([label, value]) => (
        <div key={label} className="confirm__row">
          <dt>{label}</dt>
          <dd className="amount">{value}</dd>
        </div>
      ))}
      <div className="confirm__row confirm__row--total">
        <dt>Total</dt>
        <dd className="amount">{amount(breakdown.total)}</dd>
      </div>
    </dl>
  )
}
