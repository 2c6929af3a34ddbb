import type { MoneyBag, RefundBreakdown } from '../../../contract/api'
import { formatMoney } from '../../components/format'
import { useLocale, useT } from '../../i18n/useT'

const isZero = (money: MoneyBag) => Number(money.presentment_money.amount) === 0

/** The server's refund breakdown; bonus and new item only when they apply, and what of it is kept. */
export function Breakdown({ breakdown }: { breakdown: RefundBreakdown }) {
  const t = useT()
  const locale = useLocale()
  const amount = (money: MoneyBag, sign = '') => `${sign}${formatMoney(money.presentment_money, locale)}`
  const rows: [string, string][] = [
    [t('breakdown.items'), amount(breakdown.items_subtotal)],
    [t('breakdown.tax'), amount(breakdown.tax)],
    [
      t('breakdown.returnFee'),
      breakdown.return_fee_waived
        ? t('breakdown.feeWaived')
        : isZero(breakdown.return_fee)
          ? t('breakdown.free')
          : amount(breakdown.return_fee, '−'),
    ],
  ]
  if (!isZero(breakdown.bonus)) rows.push([t('breakdown.bonus'), amount(breakdown.bonus, '+')])
  if (!isZero(breakdown.upsell)) rows.push([t('breakdown.newItem'), amount(breakdown.upsell, '−')])
  const kept = breakdown.kept_items && !isZero(breakdown.kept_items) ? breakdown.kept_items : null
  return (
    <>
      <dl className="confirm__breakdown">
        {rows.map(([label, value]) => (
          <div key={label} className="confirm__row">
            <dt>{label}</dt>
            <dd className="amount">{value}</dd>
          </div>
        ))}
        <div className="confirm__row confirm__row--total">
          <dt>{t('breakdown.total')}</dt>
          <dd className="amount">{amount(breakdown.total)}</dd>
        </div>
      </dl>
      {kept ? <p className="confirm__kept-note">{t('breakdown.keptNote', { amount: amount(kept) })}</p> : null}
    </>
  )
}
