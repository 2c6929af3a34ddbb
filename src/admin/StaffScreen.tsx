import { useRef, useState, type FormEvent } from 'react'
import { STAFF_ROLES, type Role } from '../../contract/constants'
import type { InviteWithdrawal, StaffInviteView, StaffList, StaffMemberView } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import {
  staffApi,
  useChangeRoleMutation,
  useInviteStaffMutation,
  useRemoveStaffMutation,
  useResetStaffMutation,
  useSessionQuery,
  useSetReviewLimitMutation,
  useStaffQuery,
} from './api'
import { ConfirmQuestion } from './ConfirmQuestion'
import { ErrorAlert } from './ErrorAlert'
import { Field } from './Fields'
import { formatMoment } from './format'
import { useConsoleTitle } from './useConsoleTitle'

/** Withdrawing a pending invite: this screen's alone, so it loads with it. */
const { useWithdrawInviteMutation } = staffApi.injectEndpoints({
  endpoints: (build) => ({
    withdrawInvite: build.mutation<StaffList, InviteWithdrawal>({
      query: (body) => ({ url: 'staff/invites/withdraw', method: 'POST', body }),
      invalidatesTags: ['Staff'],
    }),
  }),
})

const RoleOptions = () => (
  <>
    {STAFF_ROLES.map((role) => (
      <option key={role} value={role}>
        {role}
      </option>
    ))}
  </>
)

/** What an invite or a reset said: the words, and the link to hand over where no e-mail carries it. */
interface Said {
  words: string
  handOver?: { email: string; link: string } | undefined
}

const handOverOf = (email: string, link: string | null) => (link ? { email, link } : undefined)

/**
 * A link this server could not e-mail (no SMTP_URL): shown once to the owner who made it, to give
 * to its person by another way (decision 0081).
 */
function HandOver({ email, link }: { email: string; link: string }) {
  const [copied, setCopied] = useState('')
  return (
    <div className="console-card" role="region" aria-labelledby="hand-over-title">
      <h2 id="hand-over-title">Give {email} this link</h2>
      <p>
        This server sends no e-mail (SMTP_URL is not set), so the link was not sent. Give it to {email} yourself: it
        works once, for 72 hours, and lets its holder set the password.
      </p>
      <input className="field__input" readOnly aria-label={`Link for ${email}`} value={link} />
      <button
        type="button"
        className="button button--secondary"
        onClick={() =>
          void navigator.clipboard
            .writeText(link)
            .then(() => setCopied('Copied the link.'))
            .catch(() => setCopied('Could not copy: select the link and copy it.'))
        }
      >
        Copy link
      </button>
      <p role="status">{copied}</p>
    </div>
  )
}

/** Invite by e-mail with a role: a single-use link goes to them, for 72 hours. */
function InviteForm({ onDone }: { onDone: (said: Said) => void }) {
  const [invite, state] = useInviteStaffMutation()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('agent')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void invite({ email: email.trim(), role })
      .unwrap()
      .then((sent) => {
        const to = email.trim()
        onDone(
          sent.link
            ? { words: `Invite made for ${to}: give them the link below.`, handOver: handOverOf(to, sent.link) }
            : { words: `Invite sent to ${to}.` },
        )
        setEmail('')
      })
      .catch(() => {})
  }
  return (
    <form className="console-card" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <Field id="invite-email" label="E-mail">
        <input
          id="invite-email"
          className="field__input"
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field id="invite-role" label="Role">
        <select
          id="invite-role"
          className="field__input"
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
        >
          <RoleOptions />
        </select>
      </Field>
      <ErrorAlert error={state.error} />
      <button type="submit" className="button" disabled={state.isLoading || email.trim() === ''}>
        Send invite
      </button>
    </form>
  )
}

/** The refund agents may decide reviews up to: empty for no limit. */
function ReviewLimit({ limit }: { limit: string | null }) {
  const [save, state] = useSetReviewLimitMutation()
  const [amount, setAmount] = useState(limit ?? '')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void save({ amount: amount.trim() === '' ? null : amount.trim() })
  }
  return (
    <form className="console-card" onSubmit={submit} aria-labelledby="limit-title">
      <h2 id="limit-title">Agents’ review limit</h2>
      <Field
        id="review-limit"
        label="Agents approve or reject returns refunding up to"
        hint="Empty: no limit, agents decide any return."
      >
        <input
          id="review-limit"
          className="field__input"
          inputMode="decimal"
          pattern="[0-9]+([.][0-9]{1,3})?"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
      </Field>
      <ErrorAlert error={state.error} />
      {state.isSuccess && <p role="status">Saved.</p>}
      <button type="submit" className="button" disabled={state.isLoading}>
        Save limit
      </button>
    </form>
  )
}

type Asking = { member: StaffMemberView; act: 'reset' | 'remove' } | { invite: StaffInviteView; act: 'withdraw' }

const QUESTIONS = {
  reset: [
    'Reset',
    'Their sessions end and their password stops working; a link to set a new one goes to them by e-mail.',
  ],
  remove: ['Remove', 'They can no longer sign in to this shop; their sessions end.'],
  withdraw: ['Withdraw invite', 'The link sent to them stops working; you can invite them again later.'],
} as const

function Question({ asking, onDone }: { asking: Asking; onDone: (said: Said | null) => void }) {
  const [reset, resetState] = useResetStaffMutation()
  const [remove, removeState] = useRemoveStaffMutation()
  const [withdraw, withdrawState] = useWithdrawInviteMutation()
  const { act } = asking
  const email = asking.act === 'withdraw' ? asking.invite.email : asking.member.email
  const state = { reset: resetState, remove: removeState, withdraw: withdrawState }[act]
  const [confirm, text] = QUESTIONS[act]
  // The reset's link, where this server sends no e-mail: read once the act is done.
  const link = useRef<string | null>(null)
  return (
    <ConfirmQuestion
      id="staff-question"
      title={act === 'withdraw' ? `Withdraw the invite for ${email}?` : `${confirm} ${email}?`}
      confirm={confirm}
      busy={state.isLoading}
      error={state.error}
      act={async () => {
        if (asking.act === 'withdraw') return withdraw({ email }).unwrap()
        if (asking.act === 'remove') return remove(asking.member.id).unwrap()
        link.current = (await reset(asking.member.id).unwrap()).link
      }}
      onDone={(done) => {
        if (!done) return onDone(null)
        if (act === 'withdraw') return onDone({ words: `The invite for ${email} was withdrawn.` })
        if (act === 'remove') return onDone({ words: `${email} was removed.` })
        onDone({ words: `${email} was reset.`, handOver: handOverOf(email, link.current) })
      }}
    >
      {text}
    </ConfirmQuestion>
  )
}

function MemberRow({ member, you, ask }: { member: StaffMemberView; you: boolean; ask: (asking: Asking) => void }) {
  const [change, state] = useChangeRoleMutation()
  return (
    <tr>
      {/* One element a cell: on a phone the cells' contents pair up with their names (console.css). */}
      <th scope="row" data-label="E-mail">
        <div>
          {member.email}
          {you && <span className="console-note"> (you)</span>}
          <ErrorAlert error={state.error} />
        </div>
      </th>
      <td data-label="Role">
        <select
          className="field__input"
          aria-label={`Role of ${member.email}`}
          value={member.role}
          disabled={state.isLoading}
          onChange={(event) => void change({ id: member.id, role: event.target.value as Role })}
        >
          <RoleOptions />
        </select>
      </td>
      <td data-label="Last sign-in">{member.last_sign_in_at ? formatMoment(member.last_sign_in_at) : 'Never'}</td>
      <td data-label="">
        <div className="staff-actions">
          <button
            type="button"
            className="button button--secondary console__small"
            aria-label={`Reset ${member.email}`}
            onClick={() => ask({ member, act: 'reset' })}
          >
            Reset
          </button>
          <button
            type="button"
            className="button button--secondary console__small"
            aria-label={`Remove ${member.email}`}
            onClick={() => ask({ member, act: 'remove' })}
          >
            Remove
          </button>
        </div>
      </td>
    </tr>
  )
}

/** /admin/staff: the shop's staff and their roles, for its owners (docs/back-office.md, "Roles"). */
export function StaffScreen() {
  const list = useStaffQuery()
  const me = useSessionQuery().data?.email
  const [asking, setAsking] = useState<Asking | null>(null)
  const [said, setSaid] = useState<Said>({ words: '' })
  useConsoleTitle('Staff')
  return (
    <section aria-labelledby="staff-title">
      <h1 id="staff-title">Staff</h1>
      <p role="status">{said.words}</p>
      {said.handOver && <HandOver {...said.handOver} />}
      {asking && (
        <Question
          asking={asking}
          onDone={(done) => {
            setAsking(null)
            if (done) setSaid(done)
          }}
        />
      )}
      {list.isLoading && <Spinner label="Loading the staff" />}
      <ErrorAlert error={list.error} focus={false} />
      {list.data && (
        <>
          <table className="console-table">
            <caption className="visually-hidden">The shop’s staff</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.members.map((member) => (
                <MemberRow key={member.id} member={member} you={member.email === me} ask={setAsking} />
              ))}
            </tbody>
          </table>
          <h2>Pending invites</h2>
          {list.data.invites.length === 0 ? (
            <p className="console-empty">No pending invites.</p>
          ) : (
            <ul>
              {list.data.invites.map((invite) => (
                <li key={invite.email}>
                  {invite.email} as {invite.role}, by {invite.invited_by}: until {formatMoment(invite.expires_at)}{' '}
                  <button
                    type="button"
                    className="button button--secondary console__small"
                    aria-label={`Withdraw invite for ${invite.email}`}
                    onClick={() => setAsking({ invite, act: 'withdraw' })}
                  >
                    Withdraw
                  </button>
                </li>
              ))}
            </ul>
          )}
          <InviteForm onDone={setSaid} />
          <ReviewLimit limit={list.data.review_limit?.amount ?? null} />
        </>
      )}
    </section>
  )
}
