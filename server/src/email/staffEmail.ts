/**
 * The e-mails to a shop's staff (docs/back-office.md, "Roles"): an invite to the back office, or
 * a fresh set-password link after a reset. In English, as the console is; plain, with the link
 * once in the text and once as a button.
 */
import type { RenderedEmail, StaffEmailPayload } from '../storage/outbox'

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!)

/** "28 November 2026, 12:00 UTC": when the link stops working. */
const until = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) +
  ' UTC'

export function renderStaffEmail(
  sender: { from: string; reply_to: string | null },
  to: string,
  payload: StaffEmailPayload,
  link: string,
): RenderedEmail {
  const invite = payload.kind === 'staff_invite'
  const subject = invite
    ? `You are invited to the ${payload.shop} returns back office`
    : `Set a new password for the ${payload.shop} returns back office`
  const lines = invite
    ? [
        `${payload.invited_by} invites you to work on ${payload.shop}'s returns as ${payload.role}.`,
        'Open this link to set your password and sign in:',
      ]
    : [
        `${payload.invited_by} reset your back office account: your sessions have ended and your old password no longer works.`,
        'Open this link to set a new password and sign in:',
      ]
  const closing = `The link works once, until ${until(payload.expires_at)}. If you did not expect this e-mail, ignore it.`
  const text = [...lines, link, '', closing].join('\n')
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
${lines.map((line) => `<p>${escape(line)}</p>`).join('\n')}
<p><a href="${escape(link)}" style="display:inline-block;padding:10px 16px;background:#1f2937;color:#fff;text-decoration:none;border-radius:6px">${invite ? 'Accept the invite' : 'Set a new password'}</a></p>
<p style="word-break:break-all">${escape(link)}</p>
<p style="color:#555">${escape(closing)}</p>
</body></html>`
  return { from: sender.from, reply_to: sender.reply_to, to, subject, html, text }
}
