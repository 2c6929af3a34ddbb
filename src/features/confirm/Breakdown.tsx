import type { MoneyBag, RefundBreakdown, RefundMethod } from '../../../contract/api'
import { formatMoney } from '../../components/format'
import { useLocale, useT } from '../../i18n/useT'

const isZero = (money: MoneyBag) => Number(money.presentment_money.amount) === 0
const value = (money: MoneyBag) => Number(money.presentment_money.amount)

interface BreakdownProps {
  breakdown: RefundBreakdown
  /** the method the total goes to; null when none is chosen (the original payment) */
  method: RefundMethod | null
}

/** The server's refund breakdown; bonus and new item only when they apply, and what of it is kept. */
export function Breakdown({ breakdown, method }: BreakdownProps) {
  const t = useT()
  const locale = useLocale()
  const amount = (money: MoneyBag, sign = '') => `${sign}${formatMoney(money.presentment_money, locale)}`
  // The items are counted before tax: said so where the tax is added below them.
  const rows: [string, string][] = [
    [t(isZero(breakdown.tax) ? 'breakdown.items' : 'breakdown.itemsExclTax'), amount(breakdown.items_subtotal)],
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
  // A total "includes" the kept items only when it is at least their worth: a fee or a new item
  // can take it below, and the note then speaks of the items instead.
  const keptNote = kept
    ? t(value(kept) <= value(breakdown.total) ? 'breakdown.keptNote' : 'breakdown.keptNoteOfItems', {
        amount: amount(kept),
      })
    : null
  // With a new item and the rest to the original payment, the bonus is on the new item alone: a
  // smaller bonus than the offer's, said why.
  const bonusOnNewItemOnly =
    !isZero(breakdown.bonus) && !isZero(breakdown.upsell) && !isZero(breakdown.total) && method !== 'store_credit'
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
      {bonusOnNewItemOnly ? (
        <p className="confirm__kept-note">{t('breakdown.bonusNewItemOnly', { price: amount(breakdown.upsell) })}</p>
      ) : null}
      {keptNote ? <p className="confirm__kept-note">{keptNote}</p> : null}
    </>
  )
}
