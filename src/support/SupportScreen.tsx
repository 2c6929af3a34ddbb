import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { useAppDispatch } from '../app/hooks'
import { ErrorMessage } from '../components/ErrorMessage'
import { Spinner } from '../components/Spinner'
import { useHeadingFocus } from '../components/useHeadingFocus'
import { supportSessionOpened } from '../features/returnFlow/returnFlowSlice'
import type { MessageId } from '../i18n/i18n'
import { useDocumentTitle } from '../components/useDocumentTitle'
import { useT } from '../i18n/useT'
import { useShop } from '../shop/useShop'
import { decodeSupportCode, type DecodedSupportCode, type SupportCodeError } from './supportCode'
import './SupportCodePanel.css'

const ERRORS: Record<SupportCodeError | 'empty', MessageId> = {
  empty: 'supportOpen.empty',
  malformed: 'supportOpen.malformed',
  unsupported_version: 'supportOpen.unsupported_version',
  foreign_shop: 'supportOpen.foreign_shop',
  too_large: 'supportOpen.too_large',
}

/**
 * /support: support staff paste a shopper's support code and land on the shopper's screen with
 * the shopper's choices, read-only. A link `/support#RB1.…` opens it at once (the fragment never
 * reaches a server or its logs).
 */
export default function SupportScreen() {
  const t = useT()
  const shop = useShop()
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const { hash } = useLocation()
  const headingRef = useHeadingFocus()
  const ids = { field: useId(), error: useId() }
  const [code, setCode] = useState(() => (hash.startsWith('#RB') ? decodeURIComponent(hash.slice(1)) : ''))
  const [error, setError] = useState<SupportCodeError | 'empty' | null>(null)
  // A link with the code in its fragment opens at once (below): opening from the first render.
  const [opening, setOpening] = useState(code !== '')
  const field = useRef<HTMLTextAreaElement>(null)

  function opened(decoded: DecodedSupportCode) {
    setOpening(false)
    if (!decoded.ok) {
      setError(decoded.error)
      field.current?.focus()
      return
    }
    dispatch(supportSessionOpened(decoded.flow))
    void navigate(decoded.path, { replace: true })
  }

  // A link with the code in its fragment opens at once, once (also under StrictMode).
  const linkOpened = useRef(false)
  const openLink = useEffectEvent(() => {
    if (linkOpened.current || code === '') return
    linkOpened.current = true
    void decodeSupportCode(code, shop.shop).then(opened)
  })
  useEffect(() => openLink(), [])

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (opening) return
    if (code.trim() === '') {
      setError('empty')
      field.current?.focus()
      return
    }
    setOpening(true)
    setError(null)
    void decodeSupportCode(code, shop.shop).then(opened)
  }

  useDocumentTitle(t('supportOpen.title'))
  return (
    <section className="step" aria-labelledby="support-title">
      <h1 id="support-title" className="screen-title" ref={headingRef} tabIndex={-1}>
        {t('supportOpen.title')}
      </h1>
      <p className="muted">{t('supportOpen.intro')}</p>
      <form className="start__form" onSubmit={onSubmit} noValidate aria-busy={opening}>
        <div className="field">
          <label className="field__label" htmlFor={ids.field}>
            {t('supportOpen.label')}
          </label>
          <textarea
            ref={field}
            id={ids.field}
            className="field__input support-panel__code"
            rows={6}
            spellCheck={false}
            autoComplete="off"
            value={code}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(event) => {
              setCode(event.target.value)
              setError(null)
            }}
          />
        </div>
        <button type="submit" className="button button--primary button--block" disabled={opening}>
          {opening ? <Spinner label={t('supportOpen.opening')} size="small" /> : null}
          <span>{t('supportOpen.open')}</span>
        </button>
        <div aria-live="polite">{error ? <ErrorMessage id={ids.error}>{t(ERRORS[error])}</ErrorMessage> : null}</div>
      </form>
    </section>
  )
}
