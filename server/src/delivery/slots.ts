/**
 * What one process's delivery loop has in hand (docs/events.md): at most `total` deliveries at
 * once, and at most `perTarget` to one target (a webhook endpoint, or `email`), so that a target
 * that does not answer holds its own rows only and the others' go on.
 */
export class Slots {
  private readonly byTarget = new Map<string, number>()
  private inHand = 0

  constructor(
    readonly total: number,
    readonly perTarget: number,
  ) {}

  /** How many more deliveries may start. */
  get free(): number {
    return this.total - this.inHand
  }

  /** Deliveries in hand per target, for the claim to leave a full target's rows alone. */
  get held(): ReadonlyMap<string, number> {
    return this.byTarget
  }

  take(target: string): void {
    this.inHand++
    this.byTarget.set(target, (this.byTarget.get(target) ?? 0) + 1)
  }

  give(target: string): void {
    this.inHand--
    const left = (this.byTarget.get(target) ?? 1) - 1
    if (left > 0) this.byTarget.set(target, left)
    else this.byTarget.delete(target)
  }
}
