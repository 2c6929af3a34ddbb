/**
 * The verify load of bench/verifyReplicas.ts and bench/verifyProfile.ts: 50 clients, every request
 * another shopper's order (#S1…#S5000 of bench/consoleSeed.ts), each client its own orders.
 */
import type { Call } from './fromAddresses'

export const CLIENTS = 50
/** The orders the load verifies, in turn: #S1…#S5000. */
export const LOAD_ORDERS = 5_000

export const verify = (order: number): Call => ({
  method: 'POST',
  path: '/portal-registration/verify',
  body: JSON.stringify({
    order_name: `#S${order}`,
    email: `submitter${order}@example.com`,
    shop: 'demo',
    portal_id: 'portal-demo',
  }),
})

/** Client c's n-th request: the orders c+1, c+51, c+101… in turn, each client its own. */
export const nextVerify = (client: number, n: number) => verify(1 + ((client + n * CLIENTS) % LOAD_ORDERS))

/** The same load at the bare route (bench/bareFastify.ts). */
export const bareCall = (client: number, n: number): Call => ({ ...nextVerify(client, n), path: '/bare' })
