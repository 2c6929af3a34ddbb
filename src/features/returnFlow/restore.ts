import type { VerifiedOrder } from '../../api/contract'
import { initialLaunch, initialState, type Launch, type ReturnFlowState } from './returnFlowSlice'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function restoreLaunch(value: unknown): Launch {
  if (!isRecord(value)) return initialLaunch
  return {
    lang: typeof value.lang === 'string' ? value.lang : null,
    testMode: value.testMode === true,
    configOverride: typeof value.configOverride === 'string' ? value.configOverride : null,
  }
}

function looksLikeOrder(value: unknown): value is VerifiedOrder {
  return (
    isRecord(value) &&
    typeof value.order_name === 'string' &&
    typeof value.token === 'string' &&
    Array.isArray(value.line_items) &&
    value.line_items.every((item) => isRecord(item) && typeof item.id === 'string')
  )
}

/**
 * Turns whatever sessionStorage held (an older version, a foreign shape, garbage) into a valid
 * flow state: what can be trusted is kept, the rest falls back to the initial state.
 */
export function restoreReturnFlow(value: unknown): ReturnFlowState {
  if (!isRecord(value)) return initialState
  return {
    launch: restoreLaunch(value.launch),
    order: looksLikeOrder(value.order) ? value.order : null,
  }
}
