import { useState, type FormEvent } from 'react'
import { useSignInMutation } from './api'
import { Field } from './Fields'
import { ErrorAlert } from './ErrorAlert'
import { useConsoleTitle } from './useConsoleTitle'

/** E-mail and password; a refusal is said in the API's words and takes the focus. */
export function SignInScreen() {
  const [signIn, { isLoading, error }] = useSignInMutation()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  useConsoleTitle('Sign in')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void signIn({ email, password })
  }
  return (
    <main className="console-center">
      <form className="console-card console-signin" onSubmit={submit} aria-labelledby="signin-title">
        <p className="console__brand console__brand--static" aria-hidden="true">
          <span className="console__logo">R</span> Returns
        </p>
        <h1 id="signin-title">Sign in to the back office</h1>
        <ErrorAlert error={error} />
        <Field id="staff-email" label="E-mail">
          <input
            id="staff-email"
            className="field__input"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <Field id="staff-password" label="Password">
          <input
            id="staff-password"
            className="field__input"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <button type="submit" className="button button--primary button--block" disabled={isLoading}>
          {isLoading ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
