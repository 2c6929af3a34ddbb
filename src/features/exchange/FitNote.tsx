import type { MessageId } from '../../i18n/i18n'
import { useT } from '../../i18n/useT'
import type { FitSuggestion } from './fitSuggestion'

const PICKED: Record<FitSuggestion['fit'], { adjacent: MessageId; skipped: MessageId; none: MessageId }> = {
  too_small: { adjacent: 'exchange.fitUp', skipped: 'exchange.fitUpSkipped', none: 'exchange.fitNoneUp' },
  too_large: { adjacent: 'exchange.fitDown', skipped: 'exchange.fitDownSkipped', none: 'exchange.fitNoneDown' },
}

/** Why a size is preselected (or why none is): the reason the shopper gave, in words. */
export function FitNote({ id, fit }: { id: string; fit: FitSuggestion }) {
  const t = useT()
  const ids = PICKED[fit.fit]
  const text =
    fit.kind === 'picked'
      ? t(fit.adjacent ? ids.adjacent : ids.skipped, { to: fit.to, from: fit.from })
      : t(ids.none, { from: fit.from })
  return (
    <p id={id} className={`notice exchange__fit${fit.kind === 'none' ? ' exchange__fit--none' : ''}`}>
      {text}
    </p>
  )
}
