/**
 * What Rebound asks a shop's commerce engine to do for a return (docs/commerce.md): written to the
 * outbox with the change that calls for it, carried out by the engine's adapter
 * (server/src/commerce). Ids are the engine's, as the order read from it has them; amounts are
 * integer minor units.
 */

/** A line of an order in the engine: its ids are the engine's, as Rebound stores them. */
export interface EngineLine {
  line_item_id: string
  quantity: number
}

/** What Rebound asks the engine to do for a return. Amounts are integer minor units. */
export type EngineAction =
  /** open the return in the engine, so the shop's own admin shows it (on submit) */
  | { kind: 'request_return'; order_id: string; items: EngineLine[]; note: string }
  /** receive the items of the return opened under `return_key`: restocked ones raise the stock */
  | {
      kind: 'receive_return'
      order_id: string
      return_key: string
      items: (EngineLine & { restock: boolean })[]
    }
  /** refund on the order's payment */
  | { kind: 'refund'; order_id: string; amount_minor: number; note: string }
  /** a single-use code of the amount the shopper can spend in the store */
  | { kind: 'store_credit'; code: string; amount_minor: number; currency: string; email: string }
  /** an exchange order for the new items */
  | {
      kind: 'exchange'
      order_id: string
      return_items: EngineLine[]
      new_items: { variant_id: string; quantity: number }[]
    }

export type EngineActionKind = EngineAction['kind']

/** What an action left in the engine: the id of what it made (or found made), and whether it was done before. */
export interface EngineOutcome {
  reference: string | null
  alreadyDone: boolean
}
