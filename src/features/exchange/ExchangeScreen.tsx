import { useId, useMemo, useRef, useState } from 'react'
import { Navigate, useParams } from 'react-router-dom'
import type { LineItem } from '../../../contract/api'
import { useAppDispatch, useAppSelector } from '../../app/hooks'
import { ErrorMessage } from '../../components/ErrorMessage'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { paths } from '../../../contract/paths'
import { useT } from '../../i18n/useT'
import { safeUrl } from '../../shop/sanitizeConfig'
import { exchangeOptions, isExchangeable } from '../returnFlow/eligibility'
import {
  exchangeChosen,
  refundPreferred,
  selectChosenItems,
  selectOrder,
  type ChosenItem,
} from '../returnFlow/returnFlowSlice'
import { useContinue, usePreviousStep } from '../returnFlow/hooks'
import { useOptionName, useVariantName } from '../returnFlow/size'
import { exchangeOptionModels, type ExchangeOptionModel } from './exchangeOptionLabels'
import { FitNote } from './FitNote'
import { findReason, suggestFit, type FitSuggestion } from './fitSuggestion'
import './ExchangeScreen.css'

const REFUND = 'refund'

/** The item being exchanged: image, title, the variant bought and the units chosen. */
function ItemSummary({ line, quantity }: { line: LineItem; quantity: number }) {
  const t = useT()
  const image = line.product_src ? safeUrl(line.product_src) : null
  const variant = useVariantName()(line)
  return (
    <div className="item exchange__item">
      {image ? (
        <img className="item__image" src={image} alt="" width={56} height={56} />
      ) : (
        <span className="item__image" aria-hidden="true" />
      )}
      <span className="item__text">
        <span className="item__title">{line.title}</span>
        {variant ? <span className="muted">{t('exchange.youHave', { variant })}</span> : null}
        <span className="muted">{t('common.returningUnits', { count: quantity })}</span>
      </span>
    </div>
  )
}

/** The choice made before, if it is still one of the options (a reload restores it). */
function restoredChoice({ exchange }: ChosenItem, options: readonly ExchangeOptionModel[]): string | null {
  if (exchange?.kind === 'refund') return REFUND
  if (exchange?.kind === 'exchange' && options.some((option) => option.variantId === exchange.variantId))
    return exchange.variantId
  return null
}

interface ExchangeFormProps {
  line: LineItem
  item: ChosenItem
  options: readonly ExchangeOptionModel[]
  /** the size the reason points to (too small: up, too large: down), when it says so */
  fit: FitSuggestion | null
}

/** Like the reason step, Continue checks on press and points at what is missing. */
function ExchangeForm({ line, item, options, fit }: ExchangeFormProps) {
  const dispatch = useAppDispatch()
  const t = useT()
  const { continueFrom, isContinuing } = useContinue()
  const errorId = useId()
  const fitNoteId = useId()
  const suggested =
    fit?.kind === 'picked' && options.some((option) => option.variantId === fit.variantId && option.available)
      ? fit.variantId
      : null
  // A choice the shopper made (stored, so restored on reload or back) always wins over the suggestion.
  const [choice, setChoice] = useState(() => restoredChoice(item, options) ?? suggested)
  const [error, setError] = useState<string | null>(null)
  const firstEnabled = useRef<HTMLInputElement>(null)
  const firstEnabledId = options.find((option) => option.available)?.variantId ?? REFUND
  const allOut = options.every((option) => !option.available)

  /** Stored as it is chosen, so a reload of this step restores it. */
  function choose(value: string) {
    setChoice(value)
    setError(null)
    if (value === REFUND) dispatch(refundPreferred({ lineItemId: line.id }))
    else dispatch(exchangeChosen({ lineItemId: line.id, variantId: value }))
  }

  async function onContinue() {
    if (isContinuing) return
    if (choice === null) {
      setError(t('exchange.chooseError'))
      firstEnabled.current?.focus()
      return
    }
    if (choice === REFUND) dispatch(refundPreferred({ lineItemId: line.id }))
    else dispatch(exchangeChosen({ lineItemId: line.id, variantId: choice }))
    await continueFrom({ kind: 'exchange', lineItemId: line.id })
  }

  return (
    <div className="exchange" aria-busy={isContinuing}>
      <ItemSummary line={line} quantity={item.quantity} />
      <fieldset className="choices exchange__choices" aria-describedby={error ? errorId : undefined}>
        <legend className="exchange__legend">{t('exchange.legend')}</legend>
        <fieldset className="exchange__variants" aria-describedby={fit ? fitNoteId : undefined}>
          <legend>{t('exchange.variantsLegend')}</legend>
          {fit ? <FitNote id={fitNoteId} fit={fit} /> : null}
          {allOut ? <p className="muted exchange__none">{t('exchange.allOut')}</p> : null}
          <div className="exchange__grid">
            {options.map((option) => (
              <label
                key={option.variantId}
                className={`exchange__chip${option.available ? '' : ' exchange__chip--out'}`}
              >
                <input
                  ref={option.variantId === firstEnabledId ? firstEnabled : undefined}
                  type="radio"
                  name="exchange"
                  value={option.variantId}
                  checked={choice === option.variantId}
                  disabled={!option.available}
                  onChange={() => choose(option.variantId)}
                />
                <span className="exchange__chip-label">{option.label ?? t('exchange.anotherVariant')}</span>
                {/* Seen, not read out: the note the group is described by says it in full. */}
                {option.variantId === suggested ? (
                  <span className="exchange__suggested" aria-hidden="true">
                    <span className="exchange__tag">{t('exchange.suggested')}</span>
                  </span>
                ) : null}
                {option.available ? null : <span className="exchange__stock">{t('common.outOfStock')}</span>}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="choice exchange__refund">
          <input
            ref={firstEnabledId === REFUND ? firstEnabled : undefined}
            type="radio"
            name="exchange"
            value={REFUND}
            checked={choice === REFUND}
            onChange={() => choose(REFUND)}
          />
          <span className="item__text">
            <span className="item__title">{t('exchange.refundInstead')}</span>
            <span className="muted">
              {t(line.keep_if_refunded ? 'exchange.refundInsteadKeepHint' : 'exchange.refundInsteadHint')}
            </span>
          </span>
        </label>
        {error ? <ErrorMessage id={errorId}>{error}</ErrorMessage> : null}
      </fieldset>
      <div className="actions">
        <button
          type="button"
          className="button button--primary button--block"
          disabled={isContinuing}
          onClick={() => void onContinue()}
        >
          {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
          <span>{t('common.continue')}</span>
        </button>
      </div>
    </div>
  )
}

/** docs/rules.md §9.3: another variant of an exchangeable item, or a refund instead. */
export default function ExchangeScreen() {
  const { id = '' } = useParams()
  const t = useT()
  const order = useAppSelector(selectOrder)
  const items = useAppSelector(selectChosenItems)
  const item = items.find((candidate) => candidate.lineItemId === id)
  const line = order?.line_items.find((candidate) => candidate.id === id)
  const exchangeData = order?.exchange_data
  const optionName = useOptionName()
  const options = useMemo(
    () =>
      line
        ? exchangeOptionModels(
            exchangeOptions(line, exchangeData),
            exchangeData?.variants ?? {},
            line.variant_id,
            // The shop's catalogue names its options in its own language: a size is said in the shopper's.
            optionName,
          )
        : [],
    [line, exchangeData, optionName],
  )
  const reasonId = item?.reason?.id
  const fit = useMemo(
    () => (line && order ? suggestFit(line, findReason(order.return_reasons, reasonId), exchangeData) : null),
    [line, order, reasonId, exchangeData],
  )
  const backTo = usePreviousStep({ kind: 'exchange', lineItemId: id })
  if (!order) return null
  if (!item || !line) return <Navigate to={paths.products.build()} replace />
  if (!isExchangeable(line, exchangeData)) return <Navigate to={paths.returnReason.build(id)} replace />

  return (
    <StepScreen title={t('exchange.title', { title: line.title })} stage="Details" backTo={backTo}>
      <ExchangeForm key={id} line={line} item={item} options={options} fit={fit} />
    </StepScreen>
  )
}
