import { useState, type FormEvent } from 'react'
import { STAFF_ROLES, type Role } from '../../contract/constants'
import type { StaffMemberView } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import {
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

const RoleOptions = () => (
  <>
    {STAFF_ROLES.map((role) => (
      <option key={role} value={role}>
        {role}
      </option>
    ))}
  </>
)

/** Invite by e-mail with a role: a single-use link goes to them, for 72 hours. */
function InviteForm({ onDone }: { onDone: (said: string) => void }) {
  const [invite, state] = useInviteStaffMutation()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('agent')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void invite({ email: email.trim(), role })
      .unwrap()
      .then(() => {
        onDone(`Invite sent to ${email.trim()}.`)
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

type Asking = { member: StaffMemberView; act: 'reset' | 'remove' }

function Question({ asking, onDone }: { asking: Asking; onDone: (said: string | null) => void }) {
  const [reset, resetState] = useResetStaffMutation()
  const [remove, removeState] = useRemoveStaffMutation()
  const { member, act } = asking
  const state = act === 'reset' ? resetState : removeState
  return (
    <ConfirmQuestion
      id="staff-question"
      title={act === 'reset' ? `Reset ${member.email}?` : `Remove ${member.email}?`}
      confirm={act === 'reset' ? 'Reset' : 'Remove'}
      busy={state.isLoading}
      error={state.error}
      act={() => (act === 'reset' ? reset(member.id) : remove(member.id)).unwrap()}
      onDone={(done) =>
        onDone(done ? (act === 'reset' ? `${member.email} was reset.` : `${member.email} was removed.`) : null)
      }
    >
      {act === 'reset'
        ? 'Their sessions end and their password stops working; a link to set a new one goes to them by e-mail.'
        : 'They can no longer sign in to this shop; their sessions end.'}
    </ConfirmQuestion>
  )
}

function MemberRow({ member, you, ask }: { member: StaffMemberView; you: boolean; ask: (asking: Asking) => void }) {
  const [change, state] = useChangeRoleMutation()
  return (
    <tr>
      <th scope="row" data-label="E-mail">
        {member.email}
        {you && <span className="console-note"> (you)</span>}
        <ErrorAlert error={state.error} />
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
        <button
          type="button"
          className="button button--secondary console__small"
          aria-label={`Reset ${member.email}`}
          onClick={() => ask({ member, act: 'reset' })}
        >
          Reset
        </button>{' '}
        <button
          type="button"
          className="button button--secondary console__small"
          aria-label={`Remove ${member.email}`}
          onClick={() => ask({ member, act: 'remove' })}
        >
          Remove
        </button>
      </td>
    </tr>
  )
}

/** /admin/staff: the shop's staff and their roles, for its owners (docs/back-office.md, "Roles"). */
export function StaffScreen() {
  const list = useStaffQuery()
  const me = useSessionQuery().data?.email
  const [asking, setAsking] = useState<Asking | null>(null)
  const [said, setSaid] = useState('')
  useConsoleTitle('Staff')
  return (
    <section aria-labelledby="staff-title">
      <h1 id="staff-title">Staff</h1>
      <p role="status">{said}</p>
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
                  {invite.email} as {invite.role}, by {invite.invited_by}: until {formatMoment(invite.expires_at)}
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
