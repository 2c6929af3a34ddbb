/** How much a FairQueue takes: jobs run at once, jobs waiting in all, and jobs of one client. */
export interface QueueLimits {
  atOnce: number
  /** jobs waiting for a turn, all clients together */
  waiting: number
  /** one client's jobs, running or waiting: a shopper's item takes 3 photos at once */
  perClient: number
}

/** A job's outcome: its work's value, or why it never ran and when to try again. */
export type Turn<T> =
  { ok: true; value: T } | { ok: false; problem: 'queue_full' | 'client_full' | 'abandoned'; retryAfterSeconds: number }

interface Waiting {
  start: () => void
  abandon: () => void
}

interface Client {
  waiting: Waiting[]
  running: number
  /** the turn this client last started a job at: the one served longest ago goes first */
  servedAt: number
}

/**
 * Jobs shared fairly between clients: at most `atOnce` run, and when a place frees, it goes to
 * the waiting client with the fewest jobs running, then the one served longest ago. A client with
 * five large photos waiting does not hold back another's one: that one runs at the next free place.
 * Bounded: a job beyond `waiting` in all, or beyond `perClient` of its client, is refused at once
 * (see docs/decisions/0038-photo-reencoding-concurrency.md).
 */
export class FairQueue {
  private readonly clients = new Map<string, Client>()
  private running = 0
  private waitingCount = 0
  private turns = 0
  /** how long a job took lately, for `retry-after` */
  private averageMs: number

  constructor(
    readonly limits: QueueLimits,
    typicalMs = 1_000,
  ) {
    this.averageMs = typicalMs
  }

  /** Jobs running and waiting, of one client or of all. */
  load(client?: string): { running: number; waiting: number } {
    if (client === undefined) return { running: this.running, waiting: this.waitingCount }
    const found = this.clients.get(client)
    return { running: found?.running ?? 0, waiting: found?.waiting.length ?? 0 }
  }

  /**
   * `work` at the client's turn. Refused at once when the queue or the client's share is full;
   * abandoned, never run, when `signal` aborts while it waits (its client went away).
   */
  async run<T>(clientKey: string, work: () => Promise<T>, signal?: AbortSignal): Promise<Turn<T>> {
    const client = this.clients.get(clientKey) ?? { waiting: [], running: 0, servedAt: 0 }
    if (client.running + client.waiting.length >= this.limits.perClient) return this.refused('client_full')
    if (this.waitingCount >= this.limits.waiting) return this.refused('queue_full')
    if (signal?.aborted) return this.refused('abandoned')
    this.clients.set(clientKey, client)
    const started = await new Promise<boolean>((resolve) => {
      const place: Waiting = {
        start: () => {
          signal?.removeEventListener('abort', place.abandon)
          resolve(true)
        },
        abandon: () => {
          client.waiting.splice(client.waiting.indexOf(place), 1)
          this.waitingCount--
          this.forget(clientKey, client)
          resolve(false)
        },
      }
      client.waiting.push(place)
      this.waitingCount++
      signal?.addEventListener('abort', place.abandon, { once: true })
      this.next()
    })
    if (!started) return this.refused('abandoned')
    const began = performance.now()
    try {
      return { ok: true, value: await work() }
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - began)
      this.running--
      client.running--
      this.forget(clientKey, client)
      this.next()
    }
  }

  /** Starts waiting jobs while there are free places, the fairest client's first. */
  private next(): void {
    while (this.running < this.limits.atOnce && this.waitingCount > 0) {
      let chosen: Client | null = null
      for (const client of this.clients.values()) {
        if (client.waiting.length === 0) continue
        if (
          !chosen ||
          client.running < chosen.running ||
          (client.running === chosen.running && client.servedAt < chosen.servedAt)
        )
          chosen = client
      }
      const place = chosen!.waiting.shift()!
      this.waitingCount--
      this.running++
      chosen!.running++
      chosen!.servedAt = ++this.turns
      place.start()
    }
  }

  private forget(key: string, client: Client): void {
    if (client.running === 0 && client.waiting.length === 0) this.clients.delete(key)
  }

  /** Refused: try again once the jobs waiting now have had their turns, about. */
  private refused(problem: 'queue_full' | 'client_full' | 'abandoned'): Turn<never> {
    const rounds = this.waitingCount / this.limits.atOnce + 1
    const retryAfterSeconds = Math.min(60, Math.max(1, Math.ceil((rounds * this.averageMs) / 1000)))
    return { ok: false, problem, retryAfterSeconds }
  }
}
