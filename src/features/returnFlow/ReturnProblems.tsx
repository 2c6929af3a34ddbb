import type { FetchBaseQueryError } from '@reduxjs/toolkit/query'
import type { SerializedError } from '@reduxjs/toolkit'
import { useEffect, useRef } from 'react'
import { Link } from 'react-router-dom'
import type { EarlierReturn, ReturnProblem, ReturnRequest, VerifiedOrder } from '../../../contract/api'
import { RETURN_PROBLEMS } from '../../../contract/constants'
import { apiUrl, portalApi } from '../../api/portalApi'
import { useGetCatalogueQuery } from '../../api/returnsEndpoints'
import { useAppSelector } from '../../app/hooks'
import type { RootState } from '../../app/store'
import { paths } from '../../../contract/paths'
import type { MessageId } from '../../i18n/i18n'
import { useT } from '../../i18n/useT'
import { renewOrder } from './renewOrder'
import { useVariantName } from './size'

const KNOWN = new Set<string>(RETURN_PROBLEMS)
const isProblem = (value: unknown): value is ReturnProblem =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ReturnProblem).field === 'string' &&
  KNOWN.has((value as ReturnProblem).problem)

/**
 * The choices a `422 invalid_return` says no longer hold (docs/api.md), or null for any other
 * failure. A 422 without a problem the portal knows still counts: it is said in general words.
 */
export function invalidReturnProblems(
  error: FetchBaseQueryError | SerializedError | undefined,
): ReturnProblem[] | null {
  if (!error || !('status' in error) || error.status !== 422) return null
  const problems = (error.data as { problems?: unknown } | undefined)?.problems
  return Array.isArray(problems) ? problems.filter(isProblem) : []
}

const isEarlierReturn = (value: unknown): value is EarlierReturn =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as EarlierReturn).id === 'string' &&
  typeof (value as EarlierReturn).name === 'string' &&
  typeof (value as EarlierReturn).status_token === 'string' &&
  Array.isArray((value as EarlierReturn).line_item_ids)

/** The returns of this order that took units a `422 invalid_return` refused (another tab's), or none. */
export function earlierReturns(error: FetchBaseQueryError | SerializedError | undefined): EarlierReturn[] {
  if (!error || !('status' in error) || error.status !== 422) return []
  const returns = (error.data as { returns?: unknown } | undefined)?.returns
  return Array.isArray(returns) ? returns.filter(isEarlierReturn) : []
}

/**
 * The order when GET /order says it already has a return (decision 0014: no unit of it can be
 * returned any more): every line as it was, none returnable, those without a reason of their own
 * marked already returned, so the items step says so instead of offering them again.
 */
export function everythingReturned(order: VerifiedOrder): VerifiedOrder {
  return {
    ...order,
    line_items: order.line_items.map((line) => ({
      ...line,
      returnable_quantity: 0,
      ineligible_reason: line.ineligible_reason ?? 'already_returned',
    })),
  }
}

const alreadyHasReturn = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  (error as FetchBaseQueryError).status === 409 &&
  ((error as { data?: { error?: unknown } }).data?.error ?? null) === 'order_already_has_return'

/*
 * Injected here, with the later steps that show a refusal, not in the start screen's bundle.
 */
const refusalApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The session's order as it is now, after a refused return, with the flow's choices renewed
     * against it (renewOrder): the steps a refusal links to then offer what holds today (units
     * left, sizes in stock), not what verify said. Failing that, they show what they had. Every
     * unit of it returned (another tab made the return): no order is answered, so the one held as
     * the request started is marked so, and the items step says "Already returned" rather than
     * offer them again. Only an answer asked for renews the flow, never a cached one.
     */
    renewOrderAfterRefusal: build.query<VerifiedOrder, void>({
      query: () => apiUrl('/portal-registration/order'),
      async onQueryStarted(_arg, api) {
        const { dispatch, queryFulfilled } = api
        const held = (api.getState() as RootState).returnFlow.order
        try {
          const { data } = await queryFulfilled
          dispatch(renewOrder(data))
        } catch (caught) {
          if (held && alreadyHasReturn((caught as { error?: unknown }).error))
            dispatch(renewOrder(everythingReturned(held)))
        }
      },
    }),
  }),
})

/** What to say and where to go for one problem; the same step is offered once. */
interface Fix {
  key: string
  words: string
  action: string
  to: string
}

const ITEM_FIELD = /^items\[(\d+)\]\./

function useFixes(
  problems: readonly ReturnProblem[],
  request: ReturnRequest,
  order: VerifiedOrder,
  returns: readonly EarlierReturn[],
): Fix[] {
  const t = useT()
  const lang = useAppSelector((state) => state.returnFlow.launch.lang)
  const nameVariant = useVariantName()
  const upsellId = request.upsell_variant_id ?? null
  const catalogue = useGetCatalogueQuery(undefined, { skip: upsellId === null })
  const upsell = catalogue.data?.products.flatMap((product) => product.variants).find((v) => v.id === upsellId)
  const newItem = upsell ? (upsell.title ? `${upsell.product_title} (${upsell.title})` : upsell.product_title) : null

  const toProducts = { action: t('problem.changeItems'), to: paths.products.build() }
  const fixes = problems.map((problem): Fix => {
    const index = ITEM_FIELD.exec(problem.field)?.[1]
    const sent = index === undefined ? undefined : request.items[Number(index)]
    const line = sent ? order.line_items.find((candidate) => candidate.id === sent.line_item_id) : undefined
    const variant = line ? nameVariant(line) : null
    const item = line ? (variant ? `${line.title} (${variant})` : line.title) : null
    const say = (id: MessageId, values: Record<string, string> = {}) => t(id, { item: item ?? '', ...values })

    if (problem.field === 'upsell_variant_id') {
      // Named from the catalogue, which the exploration has loaded; unnamed if it cannot be read.
      const words =
        problem.problem === 'costs_more_than_credit'
          ? newItem
            ? t('problem.newItemTooDear', { item: newItem })
            : t('problem.someNewItemTooDear')
          : problem.problem === 'out_of_stock'
            ? newItem
              ? t('problem.newItemSoldOut', { item: newItem })
              : t('problem.someNewItemSoldOut')
            : t('problem.newItemGone')
      // A shop that no longer offers a new item: the way back is through the items.
      const fix =
        problem.problem === 'no_upsell'
          ? toProducts
          : { action: t('problem.chooseNewItem'), to: paths.upsellExplore.build() }
      return { key: `upsell:${fix.to}`, words, ...fix }
    }
    if (!sent || !line || !item) return { key: 'products', words: t('problem.general'), ...toProducts }

    switch (problem.problem) {
      case 'out_of_stock':
      case 'exchange_not_offered': {
        const variant = sent.exchange_variant_id
          ? order.exchange_data?.variants[sent.exchange_variant_id]?.title
          : undefined
        const words =
          problem.problem === 'out_of_stock' && variant
            ? say('problem.exchangeSoldOut', { variant })
            : say('problem.exchangeGone')
        const to = paths.exchange.build(line.id)
        return { key: to, words, action: say('problem.chooseExchange'), to }
      }
      case 'not_returnable':
      case 'too_many': {
        // Units taken by a return made meanwhile (another tab): named, with the way to it.
        const earlier = returns.find((made) => made.line_item_ids.includes(line.id))
        if (earlier)
          return {
            key: `return:${earlier.id}:${line.id}`,
            words: say(problem.problem === 'too_many' ? 'problem.partlyReturned' : 'problem.alreadyReturned', {
              name: earlier.name,
            }),
            action: t('problem.seeReturn', { name: earlier.name }),
            to: paths.status.build(earlier.id, earlier.status_token, lang),
          }
        const words = say(problem.problem === 'too_many' ? 'problem.tooMany' : 'problem.notReturnable')
        return { key: `products:${line.id}`, words, ...toProducts }
      }
      case 'unknown_item':
      case 'listed_twice':
        return { key: 'products', words: t('problem.general'), ...toProducts }
      default: {
        // The reason, its comment or its photos: the reason step of that item says what it needs.
        const to = paths.returnReason.build(line.id)
        return { key: to, words: say('problem.reviewReason'), action: say('problem.reviewReasonAction'), to }
      }
    }
  })
  if (fixes.length === 0) fixes.push({ key: 'products', words: t('problem.general'), ...toProducts })
  const unique = [...new Map(fixes.map((fix) => [fix.key, fix])).values()]
  // Items that went in another return: one link to each return, and the items step to choose anew.
  const seen = new Set<string>()
  const linked = unique.map((fix) => {
    if (!fix.key.startsWith('return:')) return fix
    const first = !seen.has(fix.to)
    seen.add(fix.to)
    return first ? fix : { ...fix, action: '', to: '' }
  })
  if (linked.some((fix) => fix.key.startsWith('return:')) && !linked.some((fix) => fix.to === toProducts.to))
    linked.push({ key: 'products', words: '', ...toProducts })
  return linked
}

interface ReturnProblemsProps {
  problems: readonly ReturnProblem[]
  request: ReturnRequest
  order: VerifiedOrder
  /** the returns made meanwhile that took some of the refused items (the 422's `returns`) */
  returns?: readonly EarlierReturn[]
}

/**
 * A return the server refused because some choices no longer hold (a size sold out since the
 * quote, an item returned meanwhile): each is named, with a link to the step that fixes it. It
 * takes the focus when it appears, in place of the submit button that could never work.
 */
export function ReturnProblems({ problems, request, order, returns = [] }: ReturnProblemsProps) {
  const t = useT()
  const fixes = useFixes(problems, request, order, returns)
  const headingRef = useRef<HTMLHeadingElement>(null)
  // The order as it is now, and the flow renewed with it: asked anew each time the refusal appears.
  refusalApi.useRenewOrderAfterRefusalQuery(undefined, { refetchOnMountOrArgChange: true })
  useEffect(() => headingRef.current?.focus(), [])
  return (
    <section className="confirm__problems" aria-labelledby="confirm-problems">
      <h2 id="confirm-problems" className="confirm__heading" ref={headingRef} tabIndex={-1}>
        {t('problem.title')}
      </h2>
      <ul className="confirm__problem-list">
        {fixes.map((fix) => (
          <li key={fix.key} className="confirm__problem-item">
            {fix.words ? <p>{fix.words}</p> : null}
            {fix.to ? (
              <Link className="button button--secondary" to={fix.to}>
                {fix.action}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="muted">{t('problem.kept')}</p>
    </section>
  )
}
