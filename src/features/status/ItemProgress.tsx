import { itemStates, RETURN_ITEM_STATES } from '../../../contract/constants'
import type { ReturnItemState, ReturnStatusItem } from '../../../contract/api'
import type { MessageId } from '../../i18n/i18n'
import { T } from '../../i18n/T'
import { useLocale, useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import { formatDate } from '../../components/refundTiming'

const STATE_WORDS: Record<ReturnItemState, MessageId> = {
  requested: 'status.state.requested',
  in_transit: 'status.state.in_transit',
  received: 'status.state.received',
  refunded: 'status.state.refunded',
}

/** An exchanged item's last step is its new item leaving, not money. */
const stateWords = (state: ReturnItemState, exchanged: boolean): MessageId =>
  state === 'refunded' && exchanged ? 'status.state.exchanged' : STATE_WORDS[state]

/**
 * Where `state` stands among `states`: its place, or (a state the item's way does not name) the
 * last of its states before it, so the track never loses its current step.
 */
function currentIndex(states: readonly ReturnItemState[], state: ReturnItemState): number {
  const exact = states.indexOf(state)
  if (exact >= 0) return exact
  const rank = RETURN_ITEM_STATES.indexOf(state)
  return states.reduce((found, candidate, index) => (RETURN_ITEM_STATES.indexOf(candidate) <= rank ? index : found), 0)
}

interface Step {
  key: string
  label: string
  phase: 'done' | 'current' | 'upcoming'
  at: string | undefined
  /** the return was not accepted: the way ends here */
  stopped?: true
}

const PHASE_WORDS: Record<Step['phase'], MessageId> = {
  done: 'status.done',
  current: 'status.current',
  upcoming: 'status.upcoming',
}

/**
 * One returned item and where it is: its current state in words, then each state that applies to
 * it as an ordered list, each marked done, current (aria-current) or not yet in words as well as
 * by its look. An item the shopper keeps says so, and has two steps only: requested, refunded.
 * In a return the shop did not accept (`rejected`), the way ends there: the states reached, then
 * "Not accepted" as the current step, and none after it (no parcel is expected).
 */
export function ItemProgress({ item, rejected }: { item: ReturnStatusItem; rejected?: { at?: string | undefined } }) {
  const t = useT()
  const locale = useLocale()
  const exchanged = item.exchange_variant_title !== null
  const kept = item.keep === true
  const states = item.states?.length ? item.states : itemStates(kept)
  const current = currentIndex(states, item.state)
  const reached = new Map(item.history.map((step) => [step.state, step.at]))
  const image = item.image_src ? safeUrl(item.image_src) : null
  const titleId = `status-item-${item.line_item_id}`
  const reachedStep = (state: ReturnItemState, phase: Step['phase']): Step => ({
    key: state,
    label: t(stateWords(state, exchanged)),
    phase,
    at: phase === 'upcoming' ? undefined : reached.get(state),
  })
  const steps: Step[] = rejected
    ? [
        ...states.slice(0, current + 1).map((state) => reachedStep(state, 'done')),
        { key: 'rejected', label: t('status.state.rejected'), phase: 'current', at: rejected.at, stopped: true },
      ]
    : states.map((state, index) =>
        reachedStep(state, index < current ? 'done' : index === current ? 'current' : 'upcoming'),
      )
  // "Now" names the track's current step: an item whose money went at submission has no
  // "Refunded" step, and is received as its last one even once staff mark it refunded.
  const nowState = states.includes(item.state) ? item.state : states[current]!
  const now = rejected ? t('status.state.rejected') : t(stateWords(nowState, exchanged))
  return (
    <li className="status-item" aria-labelledby={titleId}>
      <div className="status-item__head">
        {image ? (
          <img className="item__image" src={image} alt="" width={56} height={56} />
        ) : (
          <span className="item__image" aria-hidden="true" />
        )}
        <div className="item__text">
          <span className="item__title" id={titleId}>
            {item.title}
          </span>
          {item.variant_title ? <span className="muted">{item.variant_title}</span> : null}
          <span className="muted">{t('status.quantity', { count: item.quantity })}</span>
          {exchanged ? (
            <span className="status-item__exchange">
              {t('status.exchangeFor', { variant: item.exchange_variant_title! })}
            </span>
          ) : null}
          {kept ? <span className="status-item__kept">{t('status.kept')}</span> : null}
        </div>
      </div>
      <p className="status-item__now">
        <T id="status.now" values={{ state: now }} components={[<strong />]} />
      </p>
      <ol className="status-track" aria-label={t('status.timeline', { title: item.title })}>
        {steps.map((step) => (
          <li
            key={step.key}
            className={`status-track__step status-track__step--${step.phase}${step.stopped ? ' status-track__step--stopped' : ''}`}
            aria-current={step.phase === 'current' ? 'step' : undefined}
          >
            <span className="status-track__dot" aria-hidden="true" />
            <span className="status-track__text">
              <span className="status-track__label">{step.label}</span>
              <span className="visually-hidden"> ({t(PHASE_WORDS[step.phase])})</span>
              {step.at ? (
                <time className="status-track__date muted" dateTime={step.at}>
                  {formatDate(step.at, locale)}
                </time>
              ) : null}
            </span>
          </li>
        ))}
      </ol>
    </li>
  )
}
