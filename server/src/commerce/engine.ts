/**
 * The shop's commerce engine as Rebound uses it (docs/commerce.md): one interface, one adapter
 * per engine (Medusa first: `medusaEngine.ts`). An action is carried out from the outbox, under
 * the key of its outbox row, and is idempotent by that key: the adapter reads the engine's state
 * first and answers `alreadyDone` rather than doing it twice. The actions themselves are the
 * domain's (domain/engineActions.ts).
 */
import type { EngineAction, EngineOutcome } from '../domain/engineActions'
import type { EngineOrder } from '../domain/engineOrders'

/**
 * Why a call to the engine did not succeed: `unreachable` (no connection), `timeout` (no answer
 * in time), `refused` (the engine said no: a 4xx, with its message), `failed` (its own error).
 * The text never holds the engine's key.
 */
export class EngineError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'refused' | 'failed',
    message: string,
  ) {
    super(message)
    this.name = 'EngineError'
  }
}

export interface CommerceEngine {
  /** e.g. "medusa" */
  readonly name: string
  /** Carries out `action` once under `key`: a retry with the same key finds it done. */
  carryOut(action: EngineAction, key: string): Promise<EngineOutcome>
  /**
   * The order the shopper knows by `number` ("1001", without "#") whose e-mail is `email`
   * (compared without case), with the products of its lines; null when there is none. Verify
   * reads it when the stored orders do not have it (docs/decisions/0076-verify-reads-the-engine.md);
   * `signal` is verify's deadline.
   */
  findOrder?(number: string, email: string, options?: { signal?: AbortSignal }): Promise<EngineOrder | null>
}

/** The engine of each shop: null for a shop without one (refunds are recorded, not paid). */
export interface EngineDirectory {
  forShop(shopId: string): Promise<CommerceEngine | null>
}
