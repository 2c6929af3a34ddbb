import { useEffect, useRef, type ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import type { MessageId } from '../i18n/i18n'
import { useT } from '../i18n/useT'
import { SupportCodePanel } from '../support/SupportCodePanel'
import { afterFrame } from './afterFrame'
import { useDocumentTitle } from './useDocumentTitle'

/** The four stages a shopper sees in the progress indicator. */
export const STAGES = ['Items', 'Details', 'Refund', 'Confirm'] as const
export type Stage = (typeof STAGES)[number] | 'Done'

const STAGE_WORDS: Record<(typeof STAGES)[number], MessageId> = {
  Items: 'progress.items',
  Details: 'progress.details',
  Refund: 'progress.refund',
  Confirm: 'progress.confirm',
}

interface StepScreenProps {
  title: string
  stage: Stage
  /** where Back goes when the browser has no earlier step of this session (e.g. a fresh tab) */
  backTo?: string
  /**
   * The step's own content is still on its way (a spinner stands in its place): what follows it,
   * the need-help area, waits, as it would move down when the content arrives.
   */
  pending?: boolean
  children: ReactNode
}

/**
 * Gives the focus to the step's heading. A retry button is replaced by a spinner while it works:
 * without this, keyboard and screen-reader focus would fall back to the page's start.
 */
export function focusStepHeading() {
  document.getElementById('step-title')?.focus()
}

/**
 * Moves the focus to the step's heading when the shopper navigates to it, so screen readers
 * announce the new step (docs/rules.md §16.1), as useHeadingFocus does for the start screen; after
 * the frame that first draws the step, so that frame answers the click that moved on (the focus
 * makes a layout of its own; docs/decisions/0098-server-bound-steps.md). The page's first screen
 * keeps the browser's own focus.
 */
function useStepHeadingFocus() {
  const ref = useRef<HTMLHeadingElement>(null)
  const { key } = useLocation()
  useEffect(() => (key === 'default' ? undefined : afterFrame(() => ref.current?.focus())), [key])
  return ref
}

/** Back goes to the previous step of this session's history, or to `fallback` without one. */
function BackLink({ fallback }: { fallback: string }) {
  const navigate = useNavigate()
  const t = useT()
  const index = (window.history.state as { idx?: unknown } | null)?.idx
  return (
    <button
      type="button"
      className="back-link"
      onClick={() => void (typeof index === 'number' && index > 0 ? navigate(-1) : navigate(fallback))}
    >
      {t('common.back')}
    </button>
  )
}

function Progress({ stage }: { stage: Stage }) {
  const t = useT()
  const current = stage === 'Done' ? STAGES.length : STAGES.indexOf(stage)
  return (
    <nav className="progress" aria-label={t('progress.label')}>
      <ol className="progress__list">
        {STAGES.map((name, index) => (
          <li
            key={name}
            className={`progress__step${index < current ? ' progress__step--done' : ''}${index === current ? ' progress__step--current' : ''}`}
            aria-current={index === current ? 'step' : undefined}
          >
            <span className="progress__label">{t(STAGE_WORDS[name])}</span>
          </li>
        ))}
      </ol>
    </nav>
  )
}

/**
 * The frame of a step after the start screen: back link, progress, a heading that takes focus, and
 * the need-help area with the shopper's support code.
 */
export function StepScreen({ title, stage, backTo, pending = false, children }: StepScreenProps) {
  const headingRef = useStepHeadingFocus()
  useDocumentTitle(title)
  return (
    <section className="step" aria-labelledby="step-title" aria-busy={pending}>
      <div className="step__top">
        {backTo ? <BackLink fallback={backTo} /> : <span />}
        <Progress stage={stage} />
      </div>
      <h1 id="step-title" className="screen-title" ref={headingRef} tabIndex={-1}>
        {title}
      </h1>
      {children}
      {pending ? null : <SupportCodePanel />}
    </section>
  )
}
