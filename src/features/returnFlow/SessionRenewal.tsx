import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import type { ApiError, VerifiedOrder } from '../../../contract/api'
import { VERIFY_ERROR_CODES } from '../../../contract/constants'
import { useVerifyOrderMutation } from '../../api/verifyEndpoints'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { focusStepHeading } from '../../components/StepScreen'
import { paths } from '../../../contract/paths'
import { useT } from '../../i18n/useT'
import { useShop } from '../../shop/useShop'
import { renewOrder } from './renewOrder'
import { VERIFY_KEY, verifyAndOpen } from './verifyOrder'
import './SessionRenewal.css'

interface SessionRenewalProps {
  order: VerifiedOrder
  /** what the screen asks again once the order has a new token (the quote, the submit) */
  onRenewed?: () => void
}

/**
 * The order's token was refused (it lived its time): the shopper verifies again here, order name
 * and e-mail filled in, and every choice is kept (docs/decisions/0040-refused-submit.md).
 * Another order's e-mail cannot take this order's choices: the name is the session's.
 */
export function SessionRenewal({ order, onRenewed }: SessionRenewalProps) {
  const t = useT()
  const config = useShop()
  const dispatch = useAppDispatch()
  const navigate = useNavigate()
  const [, { isLoading }] = useVerifyOrderMutation({ fixedCacheKey: VERIFY_KEY })
  const [email, setEmail] = useState(order.email ?? '')
  const [error, setError] = useState<string | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const ids = { heading: useId(), error: useId() }
  // A support view's read-only token lapsed: support staff open the code again; verifying here
  // would turn the view into the shopper's own session.
  const readOnly = useAppSelector((state) => state.returnFlow.readOnly)
  // The control that was pressed (submit, a retry) is gone: the focus comes here, not to <body>.
  useEffect(() => headingRef.current?.focus(), [])
  if (readOnly)
    return (
      <section className="renewal" aria-labelledby={ids.heading}>
        <h2 id={ids.heading} className="renewal__heading" ref={headingRef} tabIndex={-1}>
          {t('renewal.supportTitle')}
        </h2>
        <p>{t('renewal.supportExplain')}</p>
      </section>
    )

  async function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (isLoading) return
    if (email.trim() === '') return setError(t('renewal.emailMissing'))
    setError(null)
    const request = {
      order_name: order.order_name,
      email: email.trim(),
      shop: config.shop,
      portal_id: config.portal_id,
    }
    // Another order (an e-mail of another order with the same name cannot be: names are unique
    // per shop, but an order imported anew has a new id) starts afresh on its items.
    const verified = await dispatch(verifyAndOpen(request, navigate, order.order_id)).catch((caught: unknown) => {
      // The error catalogue's message for a refused verify (`invalid_order` → invalid_order_message),
      // as on the start screen; not shared with it, which would cost the start screen's bundle.
      const failure = caught as FetchBaseQueryError | undefined
      const code = failure?.status === 400 ? (failure.data as ApiError | null)?.error : null
      const own = VERIFY_ERROR_CODES.find((known) => known === code)
      setError((own && config[`${own}_message`]) || config.default_error_message || t('renewal.failed'))
      return null
    })
    if (verified?.order_id !== order.order_id) return
    dispatch(renewOrder(verified))
    onRenewed?.()
    // This form and the button just pressed give way to the step: the focus goes to the step's
    // heading, not to <body> (WCAG 2.4.3).
    focusStepHeading()
  }

  return (
    <section className="renewal" aria-labelledby={ids.heading}>
      <h2 id={ids.heading} className="renewal__heading" ref={headingRef} tabIndex={-1}>
        {t('renewal.title')}
      </h2>
      <p>{t('renewal.explain')}</p>
      <form className="renewal__form" onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={isLoading}>
        <div className="field">
          <label className="field__label" htmlFor="renewal-order">
            {t('renewal.order')}
          </label>
          <input id="renewal-order" className="field__input" type="text" value={order.order_name} readOnly />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="renewal-email">
            {t('renewal.email')}
          </label>
          <input
            id="renewal-email"
            className="field__input"
            type="email"
            inputMode="email"
            autoComplete="email"
            spellCheck={false}
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(event) => (setEmail(event.target.value), setError(null))}
          />
        </div>
        {error ? <ErrorMessage id={ids.error}>{error}</ErrorMessage> : null}
        <div className="actions renewal__actions">
          <button type="submit" className="button button--primary" aria-disabled={isLoading}>
            {isLoading ? <Spinner label={t('renewal.verifying')} size="small" /> : null}
            <span>{t('renewal.submit')}</span>
          </button>
          <Link className="button button--secondary" to={paths.start.build()}>
            {t('common.startAgain')}
          </Link>
        </div>
      </form>
    </section>
  )
}
