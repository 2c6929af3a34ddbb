import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks'
import { screenLoaders } from '../../app/screens'
import { afterFrame } from '../../components/afterFrame'
import { Spinner } from '../../components/Spinner'
import { StepScreen } from '../../components/StepScreen'
import { useStickyBarSpace } from '../../components/useStickyBarSpace'
import { T } from '../../i18n/T'
import { useLocale, useT } from '../../i18n/useT'
import { itemsChosen, selectChosenItems, selectOrder, type ChosenItem } from '../returnFlow/returnFlowSlice'
import { useContinue, usePreviousStep } from '../returnFlow/hooks'
import { useVariantName } from '../returnFlow/size'
import { ProductRow } from './ProductRow'
import { formatOrderDate, prefetchProductImages, productRows, type ProductRowModel } from './productRows'
import './ProductsScreen.css'

type Chosen = Readonly<Record<string, number>>

/**
 * The rows of the first screen (ProductsScreen.css lays out as many at once): the step is drawn
 * with them, and the rest of a long order's rows follow in a render of their own, right after it
 * (docs/benchmarks.md, the shopper's steps: 150 rows made the step's first paint wait a second at
 * a phone's speed).
 */
const FIRST_ROWS = 12

/** The choice in the store, limited to what can still be chosen (a reload restores it). */
function initialChoice(rows: readonly ProductRowModel[], items: readonly ChosenItem[]): Chosen {
  const max = new Map(rows.map((row) => [row.id, row.maxQuantity]))
  const chosen: Record<string, number> = {}
  for (const item of items) {
    const limit = max.get(item.lineItemId) ?? 0
    if (limit > 0) chosen[item.lineItemId] = Math.min(Math.max(1, Math.floor(item.quantity)), limit)
  }
  return chosen
}

/** docs/rules.md §9.1: the items of the order, the units to return of each, and why some cannot be. */
export default function ProductsScreen() {
  const dispatch = useAppDispatch()
  const order = useAppSelector(selectOrder)
  // The stored choice is read once, to start from: this screen keeps its own, and re-rendering a
  // 1,000-row list for every store update its own ticks make would double each tick's work.
  const store = useAppStore()
  const t = useT()
  const locale = useLocale()
  const { continueFrom, isContinuing } = useContinue()
  const backTo = usePreviousStep({ kind: 'products' })

  const lines = order?.line_items
  const nameVariant = useVariantName()
  const barRef = useStickyBarSpace<HTMLDivElement>()
  const rows = useMemo(() => productRows(lines ?? [], locale, nameVariant), [lines, locale, nameVariant])
  // docs/rules.md §11.5: the product images are prefetched after verification, once this step,
  // which follows it, is drawn: fetched and decoded (an SVG is parsed as a document) while the
  // step is drawn, they put off its first paint (docs/benchmarks.md, the shopper's steps). After
  // its first frame, as the step is now rendered and its effects run before that frame
  // (docs/decisions/0098-server-bound-steps.md).
  useEffect(() => (lines ? afterFrame(() => prefetchProductImages(lines)) : undefined), [lines])
  // The rows' own images too: until the step's first frame is drawn they are not shown, so not
  // loaded (lazy images out of the layout), and their boxes hold their place. Each SVG is parsed
  // as a document on the main thread as it arrives, which put off that frame by 100–200 ms at a
  // phone's speed (docs/benchmarks.md, "What waits after the answer"; decision 0102).
  const [drawn, setDrawn] = useState(false)
  useEffect(() => afterFrame(() => setDrawn(true)), [])
  const shownRows = useDeferredValue(rows.length, Math.min(rows.length, FIRST_ROWS))
  const [chosen, setChosen] = useState<Chosen>(() => initialChoice(rows, selectChosenItems(store.getState())))
  // The latest choice, for the stable onChange below (rows are memoised and must not re-render).
  const latest = useRef(chosen)
  // Every change is stored at once, so a reload of this step restores the boxes and quantities.
  const onChange = useCallback(
    (lineItemId: string, quantity: number) => {
      const next: Record<string, number> = { ...latest.current }
      if (quantity > 0) next[lineItemId] = quantity
      else delete next[lineItemId]
      latest.current = next
      setChosen(next)
      // An item chosen, the reason step comes next: its chunk is fetched now, not at Continue,
      // should the steps' background preload not have reached it yet (a long order's rows keep
      // the page from being idle; docs/decisions/0098-server-bound-steps.md).
      if (quantity > 0) void screenLoaders.returnReason.preload()
      dispatch(itemsChosen(Object.entries(next).map(([id, units]) => ({ lineItemId: id, quantity: units }))))
    },
    [dispatch],
  )

  if (!order) return null
  const units = Object.values(chosen).reduce((sum, quantity) => sum + quantity, 0)
  const date = formatOrderDate(order.processed_at, locale)
  const nothingReturnable = rows.every((row) => row.maxQuantity < 1)

  async function onContinue() {
    if (units === 0 || isContinuing) return
    dispatch(
      itemsChosen(
        rows
          .filter((row) => (chosen[row.id] ?? 0) > 0)
          .map((row) => ({ lineItemId: row.id, quantity: chosen[row.id]! })),
      ),
    )
    await continueFrom({ kind: 'products' })
  }

  return (
    <StepScreen title={t('products.title')} stage="Items" backTo={backTo}>
      <p className="products__order">
        <span>
          <T id="products.order" values={{ name: order.order_name }} components={[<strong />]} />
        </span>
        {date ? (
          <span>
            <T id="products.placedOn" values={{ date }} components={[<time dateTime={order.processed_at} />]} />
          </span>
        ) : null}
      </p>
      {nothingReturnable ? <p className="notice">{t('products.nothingReturnable')}</p> : null}
      <ul
        className={`item-list products__list${drawn ? ' products__list--drawn' : ''}`}
        aria-label={t('products.listLabel')}
      >
        {rows.slice(0, shownRows).map((row) => (
          <ProductRow key={row.id} row={row} chosen={chosen[row.id] ?? 0} onChange={onChange} />
        ))}
      </ul>
      <div className="sticky-bar products__footer" ref={barRef}>
        <p className="products__summary muted" id="products-summary" aria-live="polite">
          {t('products.summary', { count: units })}
        </p>
        <button
          type="button"
          className="button button--primary button--block"
          disabled={units === 0 || isContinuing}
          aria-describedby="products-summary"
          onClick={() => void onContinue()}
        >
          {isContinuing ? <Spinner label={t('common.movingOn')} size="small" /> : null}
          <span>{t('common.continue')}</span>
        </button>
      </div>
    </StepScreen>
  )
}
