import type { VerifiedOrder } from '../../../contract/api'
import type { AppDispatch, RootState } from '../../app/store'
import {
  exchangeChosen,
  itemsChosen,
  orderVerified,
  reasonGiven,
  refundMethodChosen,
  refundPreferred,
  returnSubmitted,
  submitStarted,
  upsellAccepted,
  upsellDeclined,
  upsellVariantChosen,
} from './returnFlowSlice'

/**
 * The session's order read anew (a new token after it lapsed, SessionRenewal.tsx; what can be
 * returned now after a refused submit, ReturnProblems.tsx): a new session of that order with every
 * choice given again through the usual actions, each checked against the order as it is now (units
 * no longer returnable, an exchange no longer offered, are dropped). The submit key (and a return
 * made already) is kept only when every choice came through unchanged: other choices are another
 * return. Done here, in the
 * later steps' code, rather than by a reducer of the start screen's bundle.
 */
export const renewOrder = (fresh: VerifiedOrder) => (dispatch: AppDispatch, getState: () => RootState) => {
  const before = getState().returnFlow
  // A return made already keeps the order as it was made from (its units are returned now); only
  // the token is new.
  const order =
    before.submitted && before.order?.order_id === fresh.order_id
      ? { ...before.order, token: fresh.token, token_expires_at: fresh.token_expires_at }
      : fresh
  dispatch(orderVerified(order))
  dispatch(itemsChosen(before.items.map((item) => ({ lineItemId: item.lineItemId, quantity: item.quantity }))))
  for (const { lineItemId, reason, exchange } of before.items) {
    if (reason)
      dispatch(
        reasonGiven({
          lineItemId,
          reasonId: reason.id,
          comment: reason.comment,
          ...(reason.photoIds ? { photoIds: reason.photoIds } : {}),
        }),
      )
    if (exchange?.kind === 'exchange') dispatch(exchangeChosen({ lineItemId, variantId: exchange.variantId }))
    else if (exchange) dispatch(refundPreferred({ lineItemId }))
  }
  if (before.upsell?.kind === 'declined') dispatch(upsellDeclined())
  else if (before.upsell) {
    dispatch(upsellAccepted())
    dispatch(upsellVariantChosen({ variantId: before.upsell.variantId }))
  }
  if (before.refundMethod) dispatch(refundMethodChosen(before.refundMethod))
  const after = getState().returnFlow
  if (JSON.stringify(after.items) !== JSON.stringify(before.items)) return
  if (before.idempotencyKey) dispatch(submitStarted({ idempotencyKey: before.idempotencyKey }))
  // A return made already (its instructions were still to come) stays made.
  if (before.submitted) dispatch(returnSubmitted(before.submitted))
}
