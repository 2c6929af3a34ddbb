/**
 * An audit log's entry in words (docs/back-office.md, "The audit log"): "owner@demo.example
 * changed the policy: review 40.00 → 45.00". A kind these words do not know yet reads as its name.
 */
import type { AuditEntry } from '../../contract/staff'

type Detail = Record<string, unknown>

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/** "window_days" → "window days". */
const field = (name: string) => name.replaceAll('_', ' ')

/** The fields a settings change changed: "review {…} → {…}; limit — → {…}". */
function changes(detail: Detail): string {
  const before = (detail.before ?? {}) as Detail
  const after = (detail.after ?? {}) as Detail
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])]
  const parts = names.map((name) => `${field(name)} ${text(before[name])} → ${text(after[name])}`)
  const blocked = detail.blocked as Record<string, { added: string[]; removed: string[] }> | undefined
  for (const [list, { added, removed }] of Object.entries(blocked ?? {})) {
    if (added.length > 0) parts.push(`blocked ${field(list)} + ${added.join(', ')}`)
    if (removed.length > 0) parts.push(`blocked ${field(list)} − ${removed.join(', ')}`)
  }
  return parts.join('; ')
}

const SIGN_IN_FAILURES: Record<string, string> = {
  wrong_password: 'a wrong password',
  unknown_email: 'an e-mail that is no one’s',
  locked: 'the account locked',
  not_this_shop: 'an account of another shop',
}

/** What happened, after the actor's name. */
function predicate(entry: AuditEntry): string {
  const detail = entry.detail
  const returnName = typeof detail.return_name === 'string' ? detail.return_name : (entry.subject ?? 'a return')
  const subject = entry.subject ?? ''
  const colon = (words: string) => (words === '' ? '' : `: ${words}`)
  switch (entry.kind) {
    case 'session.signed_in':
      return 'signed in'
    case 'session.signed_out':
      return 'signed out'
    case 'session.sign_in_failed':
      return `failed to sign in (${SIGN_IN_FAILURES[text(detail.reason)] ?? text(detail.reason)})`
    case 'session.locked_out':
      return 'was locked out for 15 minutes after ten wrong passwords'
    case 'policy.changed':
      return `changed the policy${colon(changes(detail))}`
    case 'store_connection.set':
      return `set the store connection${colon(changes(detail))}${detail.key_changed ? ' (new API key)' : ''}`
    case 'store_connection.tested':
      return `tested the store connection: ${detail.ok ? 'it works' : 'it failed'}`
    case 'store_connection.removed':
      return 'removed the store connection'
    case 'webhook.added':
      return `added the webhook ${text(detail.url)}`
    case 'webhook.removed':
      return `removed the webhook ${text(detail.url)}`
    case 'webhook.enabled':
      return `enabled the webhook ${text(detail.url)}`
    case 'webhook.disabled':
      return `disabled the webhook ${text(detail.url)}`
    case 'delivery.redelivered':
      return `redelivered the webhook message ${subject}`
    case 'engine_action.retried':
      return `retried the store action ${subject}`
    case 'api_key.created':
      return `made the API key “${text(detail.label)}”`
    case 'api_key.revoked':
      return `revoked the API key “${text(detail.label)}”`
    case 'return.approved':
      return `approved ${returnName}`
    case 'return.rejected':
      return `rejected ${returnName}${colon(typeof detail.reason === 'string' ? detail.reason : '')}`
    case 'return.items_moved':
      return `marked ${Array.isArray(detail.items) ? detail.items.join(', ') : 'items'} of ${returnName} ${field(text(detail.state))}`
    case 'return.inspected':
      return `recorded the inspection of ${returnName}${detail.refunded ? ' and refunded it' : ''}`
    case 'return.photo_added':
      return `added a photo to ${returnName}`
    case 'return.note_added':
      return `wrote a note on ${returnName}`
    case 'return.cancelled':
      return `cancelled ${returnName}`
    case 'return.closed':
      return `closed ${returnName}${colon(typeof detail.reason === 'string' ? detail.reason : '')}`
    case 'email.resent':
      return `resent the e-mail ${typeof detail.email_subject === 'string' ? `“${detail.email_subject}”` : text(detail.kind)}`
    case 'staff.invited':
      return `invited ${subject} as ${text(detail.role)}`
    case 'invite.withdrawn':
      return `withdrew the invite of ${subject} as ${text(detail.role)}`
    case 'staff.invite_accepted':
      return `accepted the invite as ${text(detail.role)}`
    case 'staff.password_set':
      return 'set a new password from a reset link'
    case 'staff.role_changed':
      return `changed the role of ${subject}: ${text(detail.before)} → ${text(detail.after)}`
    case 'staff.reset':
      return `reset ${subject}: a link to set a new password went to them`
    case 'staff.removed':
      return `removed ${subject} (${text(detail.role)})`
    case 'shop.review_limit_changed':
      return `changed the agents’ review limit: ${text(detail.before) === '—' ? 'none' : text(detail.before)} → ${text(detail.after) === '—' ? 'none' : text(detail.after)}`
    case 'support.reference_opened':
      return `opened the support reference ${subject}`
    case 'returns.exported':
      return 'downloaded the returns as CSV'
    case 'audit.exported':
      return 'downloaded the audit log as CSV'
    case 'orders_api.order_created':
      return `created the order ${subject}`
    case 'orders_api.order_updated':
      return `updated the order ${subject}`
    case 'orders_api.order_deleted':
      return `deleted the order ${subject}`
    case 'orders_api.product_created':
      return `created the product ${subject}`
    case 'orders_api.product_updated':
      return `updated the product ${subject}`
    case 'orders_api.stock_updated':
      return `updated the stock of ${text(detail.changed)} variants`
    default:
      return `did ${entry.kind}${subject ? ` (${subject})` : ''}`
  }
}

/** Who did it: the e-mail, the API key by its label, or the server. */
function actorName(entry: AuditEntry): string {
  if (entry.actor.kind === 'api_key') return `API key “${entry.actor.label}”`
  return entry.actor.label
}

/** The entry as a sentence. */
export const auditSentence = (entry: AuditEntry): string => `${actorName(entry)} ${predicate(entry)}`
