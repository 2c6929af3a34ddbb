import type { NavigateFunction } from 'react-router-dom'
import type { VerifiedOrder, VerifyRequest } from '../../../contract/api'
import { paths } from '../../../contract/paths'
import { verifyApi } from '../../api/verifyEndpoints'
import { navigateAtOnce } from '../../app/PortalRouter'
import { screenLoaders } from '../../app/screens'
import type { AppDispatch } from '../../app/store'
import { orderVerified } from './returnFlowSlice'

/**
 * The one verify in flight, whichever screen sent it (the start screen, SessionRenewal): the
 * screens read whether it is under way from the mutation hook with this key (RTK Query's
 * `fixedCacheKey`), and send it through verifyAndOpen.
 */
export const VERIFY_KEY = 'verify'

/**
 * docs/rules.md §4: verifies an order and opens it: the order becomes the session
 * (`orderVerified`) and the shopper goes to its items. `keep` is the id of the order the session
 * holds already (SessionRenewal): that order, verified again, is not opened anew, for the caller to
 * renew with every choice kept (renewOrder.ts). Answers the verified order; rejects as the API
 * refused. A plain thunk, not createAsyncThunk: the start screen's bundle takes nothing more for it.
 */
export const verifyAndOpen =
  (request: VerifyRequest, navigate: NavigateFunction, keep?: string) =>
  async (dispatch: AppDispatch): Promise<VerifiedOrder> => {
    const order = await dispatch(
      verifyApi.endpoints.verifyOrder.initiate(request, { fixedCacheKey: VERIFY_KEY }),
    ).unwrap()
    if (order.order_id !== keep) {
      // The item selection's chunk in (the start screen fetches it while the shopper types, so it
      // usually is), the order and that step are rendered in one piece, not in a transition's
      // slices with frames of this screen between them (docs/decisions/0098-server-bound-steps.md).
      // The step prefetches the order's product images (docs/rules.md §11.5).
      await screenLoaders.products.preload()
      dispatch(orderVerified(order))
      navigateAtOnce(() => void navigate(paths.products.build()))
    }
    return order
  }
