import { useEffect, useEffectEvent, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { useVerifyOrderMutation } from '../../api/verifyEndpoints'
import { useAppDispatch } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { HelpText } from '../../components/HelpText'
import { Spinner } from '../../components/Spinner'
import { useHeadingFocus } from '../../components/useHeadingFocus'
import { useT } from '../../i18n/useT'
import { useShop } from '../../shop/useShop'
import { launchFromSearch } from '../../../contract/launch'
import { portalOpened } from '../returnFlow/returnFlowSlice'
import { VERIFY_KEY, verifyAndOpen } from '../returnFlow/verifyOrder'
import { canStartReturn, isValidEmail } from './email'
import { ORDER_NAME_MAX, rewriteOrderName } from './orderName'
import { verifyErrorMessage } from './verifyError'

/** A start link's search without its order name and e-mail: the launch's parameters only. */
function withoutOrder(search: URLSearchParams): string {
  const rest = new URLSearchParams(search)
  rest.delete('orderName')
  rest.delete('email')
  return rest.toString()
}

/** docs/rules.md §4: order name and e-mail in, verified order out. */
export default function StartScreen() {
  const config = useShop()
  const t = useT()
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const [search] = useSearchParams()
  const [, { isLoading: verifying }] = useVerifyOrderMutation({ fixedCacheKey: VERIFY_KEY })
  const [orderName, setOrderName] = useState(() => rewriteOrderName(search.get('orderName') ?? '', config.order_prefix))
  const [email, setEmail] = useState(() => (search.get('email') ?? '').trim())
  const [error, setError] = useState<string | null>(null)
  // Said once the shopper leaves the field, not while typing.
  const [emailLeft, setEmailLeft] = useState(false)
  const emailBad = emailLeft && email.trim() !== '' && !isValidEmail(email)
  const headingRef = useHeadingFocus()
  // One start screen per page: fixed ids (useId would cost the start bundle for nothing).
  const ids = { tooltip: 'order-tip', error: 'start-error', email: 'email-error', order: 'order-error' }
  const canSubmit = canStartReturn(orderName, email, verifying, config.order_prefix)
  // A name the API would refuse (a paste of a whole e-mail, say) is said at once, beside the field;
  // the button keeps its rule (docs/rules.md §6.1); a press sends nothing the API would refuse.
  const orderTooLong = orderName.trim().length > ORDER_NAME_MAX

  function verify(name: string, address: string) {
    const request = { order_name: name.trim(), email: address.trim(), shop: config.shop, portal_id: config.portal_id }
    return dispatch(verifyAndOpen(request, navigate)).catch((caught: unknown) =>
      setError(verifyErrorMessage(caught, config, t('start.somethingWentWrong'))),
    )
  }

  // Opening the start screen starts a new session: launch parameters kept, return order cleared.
  // The launch reads lang, testMode and config only: the link's orderName and email leaving the
  // address is no new visit, and opening the portal again then could drop an order verified meanwhile.
  const searchKey = withoutOrder(search)
  useEffect(() => {
    dispatch(portalOpened(launchFromSearch(new URLSearchParams(searchKey))))
  }, [dispatch, searchKey])

  // docs/rules.md §5.1: with orderName and email in the URL, verify once the configuration is
  // loaded (this screen renders only then): on arrival, with the fields as the link filled them.
  // Runs once per visit, also under StrictMode; typing afterwards verifies nothing by itself.
  const autoVerified = useRef(false)
  const verifyLink = useEffectEvent(() => {
    if (autoVerified.current || !search.has('orderName') || !search.has('email')) return
    autoVerified.current = true
    if (!canStartReturn(orderName, email, false, config.order_prefix) || orderTooLong) return
    // The link's order and e-mail leave the address (the other parameters stay): Back from the
    // items then reaches a start screen the shopper can use, not this link verifying again.
    void navigate({ search: withoutOrder(search) }, { replace: true })
    void verify(orderName, email)
  })
  useEffect(() => verifyLink(), [])

  // The prefix rewrite changes the start of the name only (case, a '#' dropped, the prefix put
  // in front): written into the field here with the caret kept in its place (React then finds
  // the field as it wants it and leaves it), not thrown to the end.
  function onOrderNameChange({ target: field }: ChangeEvent<HTMLInputElement>) {
    const typed = field.value
    const rewritten = rewriteOrderName(typed, config.order_prefix)
    if (rewritten !== typed) {
      const at = Math.max(0, (field.selectionStart ?? typed.length) + rewritten.length - typed.length)
      field.value = rewritten
      field.setSelectionRange(at, at)
    }
    setOrderName(rewritten)
    setError(null)
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (!canSubmit || orderTooLong) return
    setError(null)
    void verify(orderName, email)
  }

  // The button is disabled while verifying (docs/rules.md §6.1), which drops its focus: a refusal
  // then gives the focus to its message, not to the page's start. (Enter in a field keeps it there.)
  useEffect(() => {
    if (error && !(document.activeElement instanceof HTMLInputElement)) document.getElementById(ids.error)?.focus()
  }, [error, ids.error])

  const tooltip = config.order_tooltip_text
  // Escape closes the tip wherever the focus is; leaving it lets it open again.
  const [tipClosed, setTipClosed] = useState(false)
  useEffect(() => {
    const close = (event: KeyboardEvent) => event.key === 'Escape' && setTipClosed(true)
    document.addEventListener('keydown', close)
    return () => document.removeEventListener('keydown', close)
  }, [])

  return (
    <section className="start" aria-labelledby="start-title">
      <h1 id="start-title" className="screen-title" ref={headingRef} tabIndex={-1}>
        {config.start_return_message}
      </h1>
      <form className="start__form" onSubmit={onSubmit} noValidate aria-busy={verifying}>
        <div className="field">
          <label className="field__label" htmlFor="order-name">
            {t('start.orderLabel')}
          </label>
          <div className="field__row">
            <input
              id="order-name"
              className="field__input"
              name="orderName"
              type="text"
              autoComplete="off"
              autoCapitalize={config.order_prefix ? 'characters' : 'none'}
              spellCheck={false}
              placeholder={config.order_placeholder_text}
              aria-describedby={orderTooLong ? ids.order : tooltip ? ids.tooltip : undefined}
              aria-invalid={orderTooLong || undefined}
              value={orderName}
              onChange={onOrderNameChange}
            />
            {tooltip ? (
              <span
                className={tipClosed ? 'tooltip tooltip--closed' : 'tooltip'}
                onMouseLeave={() => setTipClosed(false)}
                onBlur={() => setTipClosed(false)}
              >
                <button
                  type="button"
                  className="tooltip__icon"
                  aria-label={t('start.orderHelp')}
                  aria-describedby={ids.tooltip}
                >
                  ?
                </button>
                <span className="tooltip__text" role="tooltip" id={ids.tooltip}>
                  {tooltip}
                </span>
              </span>
            ) : null}
          </div>
          {orderTooLong ? <ErrorMessage id={ids.order}>{t('start.orderTooLong')}</ErrorMessage> : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor="email">
            {t('start.emailLabel')}
          </label>
          <input
            id="email"
            className="field__input"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            placeholder={t('start.emailPlaceholder')}
            value={email}
            aria-invalid={emailBad || undefined}
            aria-describedby={emailBad ? ids.email : undefined}
            onBlur={() => setEmailLeft(true)}
            onChange={(event) => {
              setEmail(event.target.value)
              setError(null)
            }}
          />
          {emailBad ? <ErrorMessage id={ids.email}>{t('start.emailInvalid')}</ErrorMessage> : null}
        </div>
        <button type="submit" className="button button--primary button--block" disabled={!canSubmit}>
          {verifying ? <Spinner label={t('start.verifying')} size="small" /> : null}
          <span>{config.start_return_button_message}</span>
        </button>
        <div className="start__error" aria-live="polite">
          {error ? <ErrorMessage id={ids.error}>{error}</ErrorMessage> : null}
        </div>
      </form>
      {config.need_help_message ? (
        <p className="start__help">
          <HelpText text={config.need_help_message} />
        </p>
      ) : null}
    </section>
  )
}
