import type { ReturnReason } from './api'

/** Sub-reasons nest at most this deep (a reason, its sub-reasons, theirs). */
export const REASON_DEPTH = 3

/** A reason with sub-reasons is a heading: only a leaf can be chosen. */
export const isLeaf = (reason: ReturnReason): boolean => !reason.children || reason.children.length === 0

/**
 * The reasons from the top down to the one with `id`, or null when the tree has none.
 * @example reasonPath(reasons, 'wrong_item') // [Not as described, Wrong item sent]
 */
export function reasonPath(reasons: readonly ReturnReason[], id: string, depth = 1): ReturnReason[] | null {
  for (const reason of reasons) {
    if (reason.id === id) return [reason]
    if (reason.children && depth < REASON_DEPTH) {
      const below = reasonPath(reason.children, id, depth + 1)
      if (below) return [reason, ...below]
    }
  }
  return null
}

/** The leaf reason with `id`, or null when it is unknown or has sub-reasons. */
export function findLeafReason(reasons: readonly ReturnReason[], id: string): ReturnReason | null {
  const leaf = reasonPath(reasons, id)?.at(-1)
  return leaf && isLeaf(leaf) ? leaf : null
}

/** Every reason of the tree, parents before their children. */
export function allReasons(reasons: readonly ReturnReason[], depth = 1): ReturnReason[] {
  return reasons.flatMap((reason) => [
    reason,
    ...(reason.children && depth < REASON_DEPTH ? allReasons(reason.children, depth + 1) : []),
  ])
}

/** How many photos a reason asks for (0 when none). */
export const photosRequired = (reason: ReturnReason | null | undefined): number => reason?.photos_required ?? 0
