import type { RefundDeduction, ReturnStatusRefund } from '../../../contract/api'
import { formatMoney, formatPercent } from '../../components/format'
import type { MessageId } from '../../i18n/i18n'
import { useLocale, useT } from '../../i18n/useT'

const CONDITION_WORDS: Record<RefundDeduction['condition'], MessageId> = {
  as_new: 'status.condition.as_new',
  opened: 'status.condition.opened',
  damaged: 'status.condition.damaged',
  wrong_item: 'status.condition.wrong_item',
  missing: 'status.condition.missing',
}

/**
 * What the inspection took off the refund (docs/lifecycle.md): each item with the condition found,
 * the shop's percent and the amount, then the refund before and after. Nothing when nothing was.
 */
export function RefundDeductions({ refund }: { refund: ReturnStatusRefund }) {
  const t = useT()
  const locale = useLocale()
  const deductions = refund.deductions ?? []
  if (deductions.length === 0) return null
  return (
    <div className="status__deductions">
      <h3 id="status-deductions" className="status__subheading">
        {t('status.deductions')}
      </h3>
      <ul className="status__deduction-list" aria-labelledby="status-deductions">
        {deductions.map((deduction, index) => (
          <li key={`${deduction.line_item_id}-${index}`}>
            {t('status.deduction', {
              title: deduction.title,
              condition: Object.hasOwn(CONDITION_WORDS, deduction.condition)
                ? t(CONDITION_WORDS[deduction.condition])
                : deduction.condition,
              percent: formatPercent(deduction.percent / 100, locale),
              amount: formatMoney(deduction.amount, locale),
            })}
          </li>
        ))}
      </ul>
      {refund.before_deductions ? (
        <dl className="status__deduction-totals">
          <div>
            <dt>{t('status.beforeDeductions')}</dt>
            <dd className="amount">{formatMoney(refund.before_deductions, locale)}</dd>
          </div>
          <div>
            <dt>{t('status.afterDeductions')}</dt>
            <dd className="amount">{formatMoney(refund.amount, locale)}</dd>
          </div>
        </dl>
      ) : null}
    </div>
  )
}
