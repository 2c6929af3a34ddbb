/**
 * The status read model (docs/lifecycle.md): a return as its shopper's status page shows it, which
 * the console's page, the review and the moves of items (for the events they write) read too.
 */
import { itemStates } from '../../../contract/constants'
import type { NewItem, ReturnStatus, ReturnStatusItem } from '../../../contract/api'
import type { PortalContext } from '../context'
import { indexCatalogue } from '../domain/catalogue'
import { withLines } from '../domain/addressLines'
import { qrCodeValue, renderQrSvg } from '../domain/label'
import {
  issuedAtSubmission,
  keptLineIds,
  lessDeductions,
  lineHistory,
  lineState,
  statusRefund,
} from '../domain/returnStatus'
import { shopperReview, waitsOrRejected } from '../domain/review'
import { signLabel, statusSignatureValid } from '../domain/token'
import { findOrderById, type OrderRecord } from '../storage/orders'
import { findReturn, type ReturnRecord } from '../storage/returns'
import { findReturnedLines, type ReturnedLine } from '../storage/returnStates'
import { findDeductions, type DeductionRow } from '../storage/inspections'
import { findStoreCredit, type StoreCredit } from '../storage/storeCredits'
import type { Queryable } from '../storage/database'
import type { ShopRecord } from '../storage/shops'
import { Refusal } from './refusal'

/** The status page's refusals are never kept: a link that works again must not be remembered as broken. */
const NO_STORE = { 'cache-control': 'no-store' }

/**
 * A submitted return's status for the link its shopper keeps. The signature names this return
 * only. Forged, foreign and unknown look alike (404); a genuine link past its lifetime is a 410.
 */
export async function readReturnStatus(context: PortalContext, id: string, signature: string): Promise<ReturnStatus> {
  const found = statusSignatureValid(context.secret, id, signature) ? await findReturn(context.db, id) : null
  const order = found ? await findOrderById(context.db, found.order_id) : null
  const shop = order ? await context.shops.find(order.shop_id) : null
  if (!found || !order || !shop)
    throw new Refusal(404, { error: 'not_found', message: 'This status link is not valid.' }, NO_STORE)
  if (new Date(found.created_at).getTime() + context.limits.statusLinkTtlSeconds * 1000 <= context.now().getTime())
    throw new Refusal(410, { error: 'link_expired', message: 'This status link has expired.' }, NO_STORE)
  return returnStatus(context, found, order, shop)
}

/** The status page's view of a return: its items as returned (kept or sent), their states, the refund, the label while a parcel is to be sent. */
export async function returnStatus(
  context: PortalContext,
  found: ReturnRecord,
  order: OrderRecord,
  shop: ShopRecord,
  /** the return's lines, when the caller has read them already */
  lines?: ReturnedLine[],
  /** where to read them otherwise: the caller's transaction, or the database */
  db: Queryable = context.db,
  /** the return's deductions and store credit, when the caller has read them already (readShopReturn) */
  known?: { deductions: readonly DeductionRow[]; credit: StoreCredit | null },
): Promise<ReturnStatus> {
  const createdAt = new Date(found.created_at)
  const returned = lines ?? (await findReturnedLines(db, found.id))
  const byLine = new Map(returned.map((line) => [line.line_item_id, line]))
  const answered = new Map((found.return_order?.items ?? []).map((item) => [item.line_item_id, item]))
  const kept = keptLineIds(found.return_order)
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const refund = statusRefund(found.return_order, returned, createdAt)
  // In the order's own line order, as the portal shows items everywhere.
  const items: ReturnStatusItem[] = order.line_items.flatMap((line) => {
    const entry = byLine.get(line.id)
    if (!entry) return []
    const variant = line.variant_id ? catalogue.variant(line.variant_id) : null
    const answer = answered.get(line.id)
    const item: ReturnStatusItem = {
      line_item_id: line.id,
      title: answer?.title ?? line.title ?? variant?.product_title ?? 'Item',
      variant_title: answer
        ? answer.variant_title
        : line.variant_title !== undefined
          ? line.variant_title
          : (variant?.title ?? null),
      quantity: entry.quantity,
      image_src: line.product_src ?? variant?.image_src ?? null,
      exchange_variant_title:
        answer?.exchange_variant_title ??
        (entry.exchange_variant_id ? (catalogue.variant(entry.exchange_variant_id)?.title ?? null) : null),
      keep: kept.has(line.id),
      states: [...itemStates(kept.has(line.id))],
      state: lineState(entry),
      history: lineHistory(entry, createdAt),
    }
    // A refund issued on submission is not a step still to come for the items it refunds.
    return [refund?.issued_at ? issuedAtSubmission(item, entry.exchange_variant_id !== null, refund.issued_at) : item]
  })
  // The label is for the parcel still to be sent: once every item sent back is on its way (or
  // there), it is done with. Kept items never travel, so a return that keeps everything has no
  // label (as the label PDF: instructions.ts labelFor).
  // A return waiting for review, or rejected, has no label: nothing is sent before the shop approves.
  // Nor has one the shop cancelled or closed: nothing is sent after (decision 0083).
  const toSend =
    !waitsOrRejected(found) && !found.ended && items.some((item) => !item.keep && item.state === 'requested')
  const expires = Math.floor(context.now().getTime() / 1000) + context.limits.labelTtlSeconds
  const code = qrCodeValue(found.id)
  const shownRefund =
    refund && lessDeductions(refund, await deductionsOf(db, found.id, returned, items, known?.deductions))
  // Store credit, once issued, is a code to spend (decision 0064).
  const credit =
    shownRefund?.method === 'store_credit' ? (known ? known.credit : await findStoreCredit(db, found.id)) : null
  return {
    return_id: found.id,
    return_name: found.name,
    created_at: createdAt.toISOString(),
    items,
    refund: shownRefund && credit ? { ...shownRefund, store_credit: credit } : shownRefund,
    label: toSend
      ? {
          label_url: `/portal-registration/returns/${encodeURIComponent(found.id)}/label.pdf?expires=${expires}&signature=${signLabel(context.secret, found.id, expires)}`,
          qr_svg: await renderQrSvg(code),
          qr_code_value: code,
        }
      : null,
    address: withLines(shop.return_address),
    ...newItemOf(found.return_order?.new_item, items),
    ...shopperReview(found),
    ...(found.ended ? { ended: { state: found.ended, at: new Date(found.ended_at ?? createdAt).toISOString() } } : {}),
  }
}

/**
 * What inspections took off the refund (docs/lifecycle.md), each named as its item is. Read only
 * once an item has arrived: an inspection records its items received, so before that there is none.
 */
async function deductionsOf(
  db: Queryable,
  returnId: string,
  lines: readonly ReturnedLine[],
  items: readonly ReturnStatusItem[],
  known: readonly DeductionRow[] | undefined,
) {
  if (!lines.some((line) => line.events.some((event) => event.state === 'received'))) return []
  const titles = new Map(items.map((item) => [item.line_item_id, item.title]))
  return (known ?? (await findDeductions(db, returnId))).map((row) => ({
    line_item_id: row.line_item_id,
    title: titles.get(row.line_item_id) ?? 'Item',
    condition: row.condition,
    percent: row.percent,
    amount_minor: row.deduction_minor,
  }))
}

/**
 * The new item taken with the return, on its own: it ships once the return is done, so it is sent
 * when every item has reached its last step (refunded; for an exchange, its new item sent).
 */
function newItemOf(newItem: NewItem | undefined, items: readonly ReturnStatusItem[]): Pick<ReturnStatus, 'new_item'> {
  if (!newItem) return {}
  const done = items.length > 0 && items.every((item) => item.state === item.states.at(-1))
  return { new_item: { ...newItem, state: done ? 'sent' : 'to_be_sent' } }
}
