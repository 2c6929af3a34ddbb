import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { useAcceptInviteMutation } from './api'
import { ErrorAlert } from './ErrorAlert'
import { Field } from './Fields'
import { useConsoleTitle } from './useConsoleTitle'

/**
 * /admin/invite#token=…: an invite's (or a reset's) link. The token is in the fragment, which the
 * browser never sends, so no log sees it; the password chosen here (12 to 256 characters, as
 * `npm run staff` asks) sets the account's, and the invitee is signed in. A link that does not
 * open (used, expired, withdrawn, of another shop) says so in place of the form.
 */
export function InviteScreen({ onSignedIn }: { onSignedIn: () => void }) {
  const [accept, state] = useAcceptInviteMutation()
  const [password, setPassword] = useState('')
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? ''
  // The link itself does not open: another password would not help.
  const dead = (state.error as { data?: { error?: string } } | undefined)?.data?.error === 'invalid_invite'
  useConsoleTitle('Set your password')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void accept({ token, password })
      .unwrap()
      .then(onSignedIn)
      .catch(() => {})
  }
  return (
    <main className="console-center">
      <form className="console-card console-signin" onSubmit={submit} aria-labelledby="invite-accept-title">
        <h1 id="invite-accept-title">Set your password</h1>
        {token === '' && (
          <ErrorAlert focus={false}>This link has no token: open the link from the e-mail as it is.</ErrorAlert>
        )}
        <ErrorAlert error={state.error} />
        {dead ? (
          <Link to="/">Go to sign-in</Link>
        ) : (
          <>
            <Field id="invite-password" label="New password" hint="12 to 256 characters.">
              <input
                id="invite-password"
                className="field__input"
                type="password"
                autoComplete="new-password"
                required
                minLength={12}
                maxLength={256}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </Field>
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={state.isLoading || token === ''}
            >
              Set password and sign in
            </button>
          </>
        )}
      </form>
    </main>
  )
}
