import { useEffect, useId, useRef, useState } from 'react'
import { useLocation } from 'react-router-dom'
import { returnsApi } from '../api/returnsEndpoints'
import { useAppDispatch, useAppSelector } from '../app/hooks'
import { ErrorMessage } from '../components/ErrorMessage'
import { Spinner } from '../components/Spinner'
import { HelpText } from '../components/HelpText'
import { useT } from '../i18n/useT'
import { useShop } from '../shop/useShop'
import './SupportCodePanel.css'

type State = { kind: 'idle' } | { kind: 'making' } | { kind: 'ready'; reference: string } | { kind: 'failed' }

/**
 * The need-help area of every later step: the shop's help message and the shopper's support
 * reference (docs/rules.md §1.4, docs/support.md), made on request: a read-only token from the API,
 * the session compressed in the browser into a support code, and the code kept by the API for the
 * shop's staff under a short reference (`7KQ2-9XHD`) that can be read out on the phone. A reference
 * describes the moment it was made: a new choice or another step asks for a new one.
 */
export function SupportCodePanel() {
  const t = useT()
  const shop = useShop()
  const flow = useAppSelector((state) => state.returnFlow)
  const { pathname } = useLocation()
  // The calls are dispatched when the shopper asks, not held by mutation hooks: this panel is
  // mounted anew with every step, in the render that answers the click that moved on
  // (docs/benchmarks.md, "The shopper's steps"). Their answers are this panel's, not the store's.
  const dispatch = useAppDispatch()
  const [state, setState] = useState<State>({ kind: 'idle' })
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  const field = useRef<HTMLInputElement>(null)
  const ids = { label: useId(), status: useId(), expires: useId() }

  // A reference shows the step and choices it was made from: another step or choice makes it stale.
  // Reset while rendering (React's pattern for state that follows a value), not in an effect.
  const [madeFor, setMadeFor] = useState({ flow, pathname })
  if (madeFor.flow !== flow || madeFor.pathname !== pathname) {
    setMadeFor({ flow, pathname })
    setState({ kind: 'idle' })
    setCopied(null)
  }

  // The button pressed is replaced by the reference: the focus goes to it (selected, to copy), not
  // to the page's start.
  const ready = state.kind === 'ready'
  useEffect(() => {
    if (ready) field.current?.focus()
  }, [ready])

  if (flow.readOnly) return null

  async function make() {
    if (state.kind === 'making') return
    setState({ kind: 'making' })
    setCopied(null)
    try {
      const [{ token }, { encodeSupportCode }] = await Promise.all([
        dispatch(returnsApi.endpoints.createSupportToken.initiate(undefined, { track: false })).unwrap(),
        // The codec is its own chunk: most shoppers never ask for a code.
        import(/* webpackChunkName: "support-code" */ './supportCode'),
      ])
      const code = await encodeSupportCode({ shop: shop.shop, path: pathname, flow, token })
      const { reference } = await dispatch(
        returnsApi.endpoints.createSupportReference.initiate({ code }, { track: false }),
      ).unwrap()
      setState({ kind: 'ready', reference })
    } catch {
      setState({ kind: 'failed' })
    }
  }

  async function copy(reference: string) {
    try {
      await navigator.clipboard.writeText(reference)
      setCopied('yes')
    } catch {
      // No clipboard (an insecure origin, a refused permission): the reference is selected instead.
      field.current?.select()
      setCopied('no')
    }
  }

  return (
    <details className="support-panel">
      <summary className="support-panel__summary">{t('support.needHelp')}</summary>
      <div className="support-panel__body">
        {shop.need_help_message ? (
          <p>
            <HelpText text={shop.need_help_message} />
          </p>
        ) : null}
        <p className="muted">{t('support.intro')}</p>
        {state.kind === 'ready' ? (
          <>
            <label className="field__label" htmlFor={ids.label}>
              {t('support.label')}
            </label>
            <input
              ref={field}
              id={ids.label}
              className="field__input support-panel__code"
              readOnly
              value={state.reference}
              spellCheck={false}
              autoComplete="off"
              aria-describedby={copied ? `${ids.expires} ${ids.status}` : ids.expires}
              onFocus={(event) => event.currentTarget.select()}
            />
            <p className="muted" id={ids.expires}>
              {t('support.expires')}
            </p>
            <button type="button" className="button button--secondary" onClick={() => void copy(state.reference)}>
              {t('support.copy')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button--secondary"
            // Busy, not disabled: a disabled button would drop the focus while the code is made.
            aria-disabled={state.kind === 'making'}
            onClick={() => void make()}
          >
            {state.kind === 'making' ? <Spinner label={t('support.making')} size="small" /> : null}
            <span>{t('support.show')}</span>
          </button>
        )}
        <p className="support-panel__status" id={ids.status} aria-live="polite">
          {copied === 'yes' ? t('support.copied') : copied === 'no' ? t('support.copyFailed') : null}
        </p>
        {state.kind === 'failed' ? <ErrorMessage>{t('support.failed')}</ErrorMessage> : null}
      </div>
    </details>
  )
}
