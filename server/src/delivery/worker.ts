/**
 * The delivery loop (docs/events.md): takes due rows of the outbox under a lease, sends each
 * (SMTP for e-mails when SMTP_URL is set, else kept for the back office; signed POSTs for
 * webhooks), and records the attempt: done, or due again on the retry schedule, or failed.
 * Every process runs one; SKIP LOCKED and the lease keep two from taking the same row. It is a
 * pool: a row is taken when a slot frees, and a target has at most a few slots, so a receiver
 * that never answers delays nobody else's deliveries.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { createTransport } from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import type { PortalContext } from '../context'
import { claimDue, releaseLeases, type OutboxRow } from '../storage/outbox'
import { deliveryOf } from './attempt'
import { Slots } from './slots'
import { DELIVERY_TIMEOUT_MS } from './webhook'

export interface DeliveryOptions {
  /** e-mails go out over this SMTP server (smtp://user:pass@host:port, smtps://…); unset: kept */
  smtpUrl?: string | undefined
  /** webhooks may go to private, loopback and link-local addresses (development, tests) */
  allowPrivateNetworks: boolean
  /** how often the outbox is looked at when nothing wakes the loop */
  pollMs?: number
  /** how long a taken row is this process's; after it, another may take it again */
  leaseMs?: number
  /** how long a webhook or the mail server may take to answer (10 s) */
  timeoutMs?: number
  /** the clock of due times (the real one; tests of the API may fix the request clock) */
  clock?: () => Date
}

export interface Delivery {
  /** wakes the loop: a change has just written to the outbox */
  nudge(): void
  /** stops taking rows and waits for those in hand */
  stop(): Promise<void>
}

/** Deliveries under way at once in one process, and to one target (an endpoint, or `email`). */
export const CONCURRENCY = 64
export const PER_TARGET = 4
/**
 * A taken row is this process's for 30 s: three times the 10 s a delivery may take. A process
 * killed mid-delivery leaves its rows to others (or to its restart) after that; on PGlite, one
 * process, a restart releases them at once.
 */
export const LEASE_MS = 30_000

export function startDelivery(context: PortalContext, options: DeliveryOptions, log: FastifyBaseLogger): Delivery {
  const clock = options.clock ?? (() => new Date())
  const pollMs = options.pollMs ?? 1_000
  const leaseMs = options.leaseMs ?? LEASE_MS
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS
  const mailer = options.smtpUrl
    ? createTransport({
        url: options.smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      })
    : null
  // The mailer re-emits its transport's errors (a pooled transport's, an OAuth2 token's); an
  // 'error' nobody listens to would end the process. Each send reports its own failure.
  mailer?.on('error', (error) => log.error({ err: error }, 'the mail transport failed'))
  const slots = new Slots(CONCURRENCY, PER_TARGET)
  const inHand = new Set<Promise<void>>()
  let stopped = false
  let wake: (() => void) | null = null
  let woken = false
  let unreadable = false

  const deliver = deliveryOf({
    context,
    clock,
    mailer,
    timeoutMs,
    allowPrivateNetworks: options.allowPrivateNetworks,
    log,
  })

  /** Starts a claimed row's delivery in a slot; a freed slot wakes the loop to take more. */
  function run(row: OutboxRow) {
    slots.take(row.target)
    const task = deliver(row)
      .catch((error: unknown) =>
        // Its attempt could not be written (the database went away): the lease runs out and the
        // row is taken again, an attempt later.
        log.error({ err: error, message: row.id }, 'a delivery attempt could not be recorded'),
      )
      .finally(() => {
        slots.give(row.target)
        inHand.delete(task)
        poke()
      })
    inHand.add(task)
  }

  function poke() {
    woken = true
    wake?.()
  }

  async function nap() {
    if (!woken) {
      const ac = new AbortController()
      wake = () => ac.abort()
      await sleep(pollMs, undefined, { signal: ac.signal }).catch(() => {})
      wake = null
    }
    woken = false
  }

  /** Takes what the free slots allow; how many rows it took, or 0 when the outbox cannot be read. */
  async function claim(): Promise<number> {
    try {
      if (slots.free === 0) return 0
      const now = clock()
      const rows = await claimDue(context.db, now, new Date(now.getTime() + leaseMs), slots.free, {
        perTarget: slots.perTarget,
        held: slots.held,
      })
      for (const row of rows) run(row)
      if (unreadable) log.info('the delivery loop reads the outbox again')
      unreadable = false
      return rows.length
    } catch (error) {
      // Logged once per outage; the loop goes on polling, and delivers again when it can read.
      if (!stopped && !unreadable) log.error({ err: error }, 'the delivery loop could not read the outbox')
      unreadable = true
      return 0
    }
  }

  async function loop() {
    if (context.db.exclusive)
      await releaseLeases(context.db).catch((error: unknown) =>
        log.error({ err: error }, 'the delivery loop could not release the leases of the last run'),
      )
    while (!stopped) {
      const taken = await claim()
      if (stopped) break
      // Rows came and slots are left: there may be more (another target's, past a full one's).
      if (taken > 0 && slots.free > 0) continue
      await nap()
    }
    // Rows in hand are delivered and recorded before the loop ends.
    while (inHand.size > 0) await Promise.all([...inHand])
  }

  const running = loop()
  return {
    nudge: poke,
    async stop() {
      stopped = true
      wake?.()
      await running
      mailer?.close()
    },
  }
}
