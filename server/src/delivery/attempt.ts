/**
 * One attempt of a claimed outbox row (docs/events.md): an e-mail rendered and sent over SMTP (or
 * kept without a mail server), or a signed webhook POSTed; then the attempt recorded and the row
 * moved on: delivered, kept, due again on the retry schedule, or failed.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Transporter } from 'nodemailer'
import { EngineError } from '../commerce/engine'
import type { PortalContext } from '../context'
import { DISABLE_AFTER_MS, retryAt } from '../domain/events'
import { FALLBACK_FROM, renderEmail } from '../email/renderEmail'
import { renderStaffEmail } from '../email/staffEmail'
import { sealingKey, unseal } from '../storage/sealed'
import {
  engineReferences,
  finishAttempt,
  type AttemptResult,
  type EmailPayload,
  type EnginePayload,
  type OutboxRow,
  type RenderedEmail,
  type StaffEmailPayload,
  STAFF_LINK_PURPOSE,
} from '../storage/outbox'
import { findEndpoint, recordEndpointOutcome } from '../storage/webhookEndpoints'
import { sendWebhook } from './webhook'

export interface AttemptDeps {
  context: PortalContext
  clock: () => Date
  /** null: e-mails are kept */
  mailer: Transporter | null
  timeoutMs: number
  allowPrivateNetworks: boolean
  log: FastifyBaseLogger
}

/** The delivery of one row; it throws only when the attempt cannot be recorded. */
export function deliveryOf({ context, clock, mailer, timeoutMs, allowPrivateNetworks, log }: AttemptDeps) {
  async function attemptEmail(row: OutboxRow): Promise<{ result: AttemptResult; message: RenderedEmail | null }> {
    const started = performance.now()
    const at = clock()
    const shop = await context.shops.find(row.shop_id)
    if (!shop) return { result: failed(at, started, 'The shop is no longer there.'), message: null }
    // Linked to the shop's portal as configured now, never to an origin kept with the row: rows
    // and returns written before PORTAL_ORIGIN held the Host a submit came on (decision 0052).
    if (row.return_id === null) return attemptStaffEmail(row, shop, at, started)
    const stored = row.payload as EmailPayload
    // An exchange's e-mail names what the engine made for it, now that it is done (decision 0078).
    const references = stored.engine_actions ? await engineReferences(context.db, stored.engine_actions) : []
    const payload: EmailPayload = {
      ...stored,
      origin: context.portalOrigin(shop.id),
      ...(references.length > 0 ? { engine_references: references } : {}),
    }
    const email = await renderEmail(shop, row.recipient!, payload, context.secret)
    return send(row, email, message(email), at, started)
  }

  /**
   * An e-mail to staff (an invite, a set-password link): its sealed link opened now. What is kept
   * of it once sent names the link without its token; kept without a mail server, it is whole,
   * since the row is then the only way to it (decision 0081).
   */
  async function attemptStaffEmail(
    row: OutboxRow,
    shop: { email: { from?: string | undefined; reply_to?: string | undefined } | null },
    at: Date,
    started: number,
  ): Promise<{ result: AttemptResult; message: RenderedEmail | null }> {
    const payload = row.payload as unknown as StaffEmailPayload
    const link = unseal(sealingKey(context.secret, STAFF_LINK_PURPOSE), payload.link_sealed, row.id)
    const sender = { from: shop.email?.from ?? FALLBACK_FROM, reply_to: shop.email?.reply_to ?? null }
    const email = renderStaffEmail(sender, row.recipient!, payload, link)
    const redacted = link.replace(/#.*$/, '#token=…')
    const kept = mailer ? renderStaffEmail(sender, row.recipient!, payload, redacted) : email
    return send(row, { ...email, attachments: [] }, kept, at, started)
  }

  const message = ({ attachments: _attachments, ...rest }: RenderedEmail & { attachments: unknown[] }) => rest

  async function send(
    row: OutboxRow,
    email: RenderedEmail & { attachments: Parameters<Transporter['sendMail']>[0]['attachments'] },
    kept: RenderedEmail,
    at: Date,
    started: number,
  ): Promise<{ result: AttemptResult; message: RenderedEmail | null }> {
    const { attachments } = email
    const message = kept
    if (!mailer)
      return {
        result: { at, durationMs: performance.now() - started, ok: true, statusCode: null, error: null },
        message,
      }
    try {
      await mailer.sendMail({
        from: email.from,
        to: email.to,
        ...(email.reply_to ? { replyTo: email.reply_to } : {}),
        subject: email.subject,
        html: email.html,
        text: email.text,
        attachments,
        headers: { 'X-Rebound-Message-Id': row.id },
      })
      return {
        result: { at, durationMs: performance.now() - started, ok: true, statusCode: 250, error: null },
        message,
      }
    } catch (error) {
      return { result: failed(at, started, smtpError(error, timeoutMs)), message }
    }
  }

  async function attemptWebhook(row: OutboxRow): Promise<AttemptResult> {
    const started = performance.now()
    const at = clock()
    const endpoint = await findEndpoint(context.db, row.target)
    if (!endpoint) return failed(at, started, 'The endpoint was removed.')
    const outcome = await sendWebhook(
      {
        url: endpoint.url,
        secret: endpoint.secret,
        id: row.id,
        body: JSON.stringify(row.payload),
        at,
      },
      allowPrivateNetworks,
      timeoutMs,
    )
    await recordEndpointOutcome(context.db, endpoint.id, outcome.ok, at, DISABLE_AFTER_MS)
    return { at, durationMs: performance.now() - started, ...outcome }
  }

  /**
   * An action in the shop's commerce engine, under the row's id as its key: the adapter reads
   * the engine first, so an attempt after one whose answer was lost finds it done (docs/commerce.md).
   */
  async function attemptEngine(row: OutboxRow): Promise<{ result: AttemptResult; reference: string | null }> {
    const started = performance.now()
    const at = clock()
    const engine = await context.engines.forShop(row.shop_id)
    if (!engine) return { result: failed(at, started, 'No store is connected.'), reference: null }
    try {
      const outcome = await engine.carryOut((row.payload as EnginePayload).action, row.id)
      return {
        result: { at, durationMs: performance.now() - started, ok: true, statusCode: null, error: null },
        reference: outcome.reference,
      }
    } catch (error) {
      if (error instanceof EngineError) return { result: failed(at, started, error.message), reference: null }
      throw error
    }
  }

  async function deliver(row: OutboxRow): Promise<void> {
    let result: AttemptResult
    let message: RenderedEmail | null = null
    let reference: string | null = null
    const [at, started] = [clock(), performance.now()]
    try {
      if (row.channel === 'email') ({ result, message } = await attemptEmail(row))
      else if (row.channel === 'engine') ({ result, reference } = await attemptEngine(row))
      else result = await attemptWebhook(row)
    } catch (error) {
      // Rendering or the database failed: an attempt that failed, tried again on the schedule.
      result = failed(at, started, error instanceof Error ? error.message : String(error))
    }
    const kept = row.channel === 'email' && mailer === null
    const next = result.ok
      ? { state: kept ? ('kept' as const) : ('delivered' as const), message, reference }
      : (() => {
          const due = retryAt(row.attempts, result.at)
          return due ? { state: 'pending' as const, dueAt: due, message } : { state: 'failed' as const, message }
        })()
    await finishAttempt(context.db, row, result, next)
    if (!result.ok)
      log.warn({ message: row.id, event: row.event, attempt: row.attempts, error: result.error }, 'delivery failed')
  }

  return deliver
}

function failed(at: Date, started: number, error: string): AttemptResult {
  return { at, durationMs: performance.now() - started, ok: false, statusCode: null, error }
}

function smtpError(error: unknown, timeoutMs: number): string {
  const { responseCode, code, message } = error as { responseCode?: number; code?: string; message?: string }
  if (responseCode) return `The mail server answered ${responseCode}.`
  if (code === 'ETIMEDOUT') return `The mail server did not answer within ${timeoutMs / 1000} s.`
  return code ? `Could not send (${code}).` : (message ?? 'Could not send.')
}
