import { useId, useRef, useState, type ComponentProps } from 'react'
import { Link, Navigate } from 'react-router-dom'
import type { Catalogue, CatalogueProduct, MoneyBag } from '../../../contract/api'
import { useGetCatalogueQuery } from '../../api/returnsEndpoints'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { focusStepHeading, StepScreen } from '../../components/StepScreen'
import { formatMoney } from '../../components/format'
import { useStickyBarSpace } from '../../components/useStickyBarSpace'
import { paths } from '../../../contract/paths'
import { useLocale, useT } from '../../i18n/useT'
import { upsellVariantChosen } from '../returnFlow/returnFlowSlice'
import { useContinue, useCreditQuote, usePreviousStep, useQuoteAhead, useSessionExpired } from '../returnFlow/hooks'
import { earlierReturns, invalidReturnProblems, ReturnProblems } from '../returnFlow/ReturnProblems'
import { useOptionName } from '../returnFlow/size'
import { creditOf, fitsCredit, variantLabel } from './credit'
import { ProductCard } from './ProductCard'
import './UpsellExploreScreen.css'

/** A variant of the catalogue that can be chosen now: in stock and within the credit. */
function choosable(catalogue: Catalogue, credit: MoneyBag, variantId: string | null): boolean {
  const variant = catalogue.products
    .flatMap((product) => product.variants)
    .find((candidate) => candidate.id === variantId)
  return variant !== undefined && variant.available && fitsCredit(variant.price, credit)
}

/** A product with a variant that can be chosen now; the others wait behind a disclosure. */
const hasChoice = (product: CatalogueProduct, credit: MoneyBag) =>
  product.variants.some((variant) => variant.available && fitsCredit(variant.price, credit))

interface ExploreFormProps {
  catalogue: Catalogue
  credit: MoneyBag
  choice: string | null
}

function ExploreForm({ catalogue, credit, choice }: ExploreFormProps) {
  const dispatch = useAppDispatch()
  const t = useT()
  const locale = useLocale()
  const optionName = useOptionName()
  const { continueFrom, isContinuing } = useContinue()
  // A pick is kept in the flow at once (pick): the quote that decides the step after it is asked then.
  useQuoteAhead({ kind: 'upsell-explore' })
  const errorId = useId()
  const [error, setError] = useState<string | null>(null)
  const grid = useRef<HTMLUListElement>(null)
  const barRef = useStickyBarSpace<HTMLDivElement>()
  const open = catalogue.products.filter((product) => hasChoice(product, credit))
  const closed = catalogue.products.filter((product) => !hasChoice(product, credit))
  const picked = catalogue.products
    .flatMap((product) => product.variants.map((variant) => ({ product, variant })))
    .find(({ variant }) => variant.id === choice)

  async function finish(variantId: string | null) {
    if (isContinuing) return
    dispatch(upsellVariantChosen({ variantId }))
    await continueFrom({ kind: 'upsell-explore' })
  }

  function chooseItem() {
    if (choice !== null && choosable(catalogue, credit, choice)) return void finish(choice)
    setError(t('explore.chooseError'))
    grid.current?.querySelector<HTMLInputElement>('input:not(:disabled)')?.focus()
  }

  // A pick is kept in the flow at once, like an exchange's size, so a reload or a support code keeps it.
  function pick(variantId: string) {
    dispatch(upsellVariantChosen({ variantId }))
    setError(null)
  }

  const cards = (products: CatalogueProduct[]) =>
    products.map((product) => (
      <ProductCard key={product.id} product={product} credit={credit} choice={choice} onChoose={pick} locale={locale} />
    ))

  return (
    <div className="explore" aria-busy={isContinuing}>
      <p className="notice explore__credit">
        {t('explore.credit')} <span className="amount">{formatMoney(credit.presentment_money, locale)}</span>
        <span className="muted explore__hint">{t('explore.hint')}</span>
      </p>
      {catalogue.products.length === 0 ? (
        <p className="muted">{t('explore.empty')}</p>
      ) : open.length === 0 ? (
        <p className="muted">{t('explore.noneFits')}</p>
      ) : null}
      <ul className="explore__grid" ref={grid} aria-describedby={error ? errorId : undefined}>
        {cards(open)}
      </ul>
      {closed.length > 0 ? (
        <details className="explore__more">
          <summary>{t('explore.more', { count: closed.length })}</summary>
          <ul className="explore__grid">{cards(closed)}</ul>
        </details>
      ) : null}
      <div className="sticky-bar explore__bar" ref={barRef}>
        <p className="explore__pick" aria-live="polite">
          {picked ? (
            <>
              <span className="explore__pick-name">
                {t('explore.picked')}{' '}
                <strong>
                  {picked.product.title}
                  {picked.variant.options.length > 0 || picked.product.variants.length > 1
                    ? ` · ${variantLabel(picked.variant, optionName)}`
                    : ''}
                </strong>
              </span>
              <span className="amount">{formatMoney(picked.variant.price.presentment_money, locale)}</span>
            </>
          ) : (
            <span className="muted">{t('explore.nothingPicked')}</span>
          )}
        </p>
        {error ? <ErrorMessage id={errorId}>{error}</ErrorMessage> : null}
        <button
          type="button"
          className="button button--primary button--block explore__choose"
          disabled={isContinuing}
          onClick={chooseItem}
        >
          {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
          <span>{t('explore.choose')}</span>
        </button>
      </div>
      <div className="actions">
        <button
          type="button"
          className="button button--secondary button--block"
          disabled={isContinuing}
          onClick={() => void finish(null)}
        >
          {t('explore.skip')}
        </button>
      </div>
    </div>
  )
}

/** docs/rules.md §9.4: a replacement from the catalogue, worth no more than the credit. */
export default function UpsellExploreScreen() {
  const flow = useAppSelector((state) => state.returnFlow)
  const t = useT()
  const catalogue = useGetCatalogueQuery()
  const backTo = usePreviousStep({ kind: 'upsell-explore' })
  const expired = useSessionExpired()
  const choice = flow.upsell?.kind === 'accepted' ? flow.upsell.variantId : null
  // The credit is what the items are worth as store credit before any upsell: in general not the
  // quote of the current choices (no method is chosen yet), so it is this screen's, not the flow's.
  const { creditRequest, quote } = useCreditQuote()
  // Choices that no longer hold (a 422: units returned meanwhile, from another tab) are named with
  // the way to fix them, as on the refund step: asking for the same credit again could never work.
  // Held once said, so the order renewed below it (fewer items, perhaps none) does not unsay it.
  const [refused, setRefused] = useState<ComponentProps<typeof ReturnProblems> | null>(null)
  const problems = invalidReturnProblems(quote.error)
  if (problems && flow.order && creditRequest && !refused)
    setRefused({ problems, request: creditRequest.body, order: flow.order, returns: earlierReturns(quote.error) })

  if (!creditRequest && !refused) return <Navigate to={paths.products.build()} replace />

  let content
  if (refused) {
    content = <ReturnProblems {...refused} />
  } else if (expired) {
    content = (
      <div className="explore__problem">
        <ErrorMessage>{t('explore.expired')}</ErrorMessage>
        <Link className="button button--secondary" to={paths.start.build()}>
          {t('common.startAgain')}
        </Link>
      </div>
    )
  } else if (catalogue.isError || quote.isError) {
    content = (
      <div className="explore__problem">
        <ErrorMessage>{t(catalogue.isError ? 'explore.catalogueFailed' : 'explore.creditFailed')}</ErrorMessage>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            focusStepHeading()
            if (catalogue.isError) void catalogue.refetch()
            if (quote.isError) void quote.refetch()
          }}
        >
          {t('common.tryAgain')}
        </button>
      </div>
    )
  } else if (catalogue.data && quote.currentData) {
    content = <ExploreForm catalogue={catalogue.data} credit={creditOf(quote.currentData)} choice={choice} />
  } else {
    content = (
      <div className="card__center">
        <Spinner label={t('explore.loading')} />
      </div>
    )
  }

  return (
    <StepScreen title={t('explore.title')} stage="Refund" backTo={backTo}>
      {content}
    </StepScreen>
  )
}
