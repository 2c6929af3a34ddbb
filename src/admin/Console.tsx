import { lazy, Suspense, useRef, useState, type KeyboardEvent, type ReactElement } from 'react'
import { Provider } from 'react-redux'
import { BrowserRouter, Link, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router-dom'
import type { StaffAction } from '../../contract/constants'
import { Spinner } from '../components/Spinner'
import { errorText, signedOut, useCan, useReviewsQuery, useSessionQuery, useSignOutMutation } from './api'
import { EmailScreen, EmailsScreen } from './EmailsScreen'
import { EngineActionsScreen } from './EngineActions'
import { ReturnScreen } from './ReturnScreen'
import { ReturnsScreen } from './ReturnsScreen'
import { ReviewQueueScreen } from './ReviewQueueScreen'
import { SignInScreen } from './SignInScreen'
import { SupportScreen } from './SupportScreen'
import type { ConsoleStore } from './store'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'
import { forgetDrafts } from './receivingDraft'

// The warehouse's, the policy's, the insights', the webhooks' and the API keys' screens are used by few
// and rarely: loaded when opened, they keep the console's first load within its budget (docs/benchmarks.md).
const InsightsScreen = lazy(() => import('./InsightsScreen').then((module) => ({ default: module.InsightsScreen })))
const WebhooksScreen = lazy(() => import('./WebhooksScreen').then((module) => ({ default: module.WebhooksScreen })))
const ApiKeysScreen = lazy(() => import('./ApiKeysScreen').then((module) => ({ default: module.ApiKeysScreen })))
const StoreConnectionScreen = lazy(() =>
  import('./StoreConnectionScreen').then((module) => ({ default: module.StoreConnectionScreen })),
)
const PolicyScreen = lazy(() => import('./PolicyScreen').then((module) => ({ default: module.PolicyScreen })))
const ReceivingScreen = lazy(() => import('./ReceivingScreen').then((module) => ({ default: module.ReceivingScreen })))
const StaffScreen = lazy(() => import('./StaffScreen').then((module) => ({ default: module.StaffScreen })))
const InviteScreen = lazy(() => import('./InviteScreen').then((module) => ({ default: module.InviteScreen })))
const ReceivingReturnScreen = lazy(() =>
  import('./ReceivingReturnScreen').then((module) => ({ default: module.ReceivingReturnScreen })),
)
const AuditScreen = lazy(() => import('./AuditScreen').then((module) => ({ default: module.AuditScreen })))

/**
 * The back office: sign-in, then the shop's returns (docs/back-office.md). A page of its own
 * (admin.html, the `admin` entry): nothing of it reaches the shopper's portal.
 */
export function Console({ store }: { store: ConsoleStore }) {
  return (
    <Provider store={store}>
      <BrowserRouter basename="/admin">
        <SignedIn />
      </BrowserRouter>
    </Provider>
  )
}

function SignedIn() {
  const session = useSessionQuery()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  // An invite's link: no session yet, and none needed to set a password.
  if (pathname === '/invite')
    return (
      <Suspense fallback={<Loading />}>
        <InviteScreen onSignedIn={() => void navigate('/', { replace: true })} />
      </Suspense>
    )
  if (session.isLoading) return <Loading />
  if (session.error && signedOut(session.error)) return <SignInScreen />
  if (session.error || !session.data)
    return (
      <main className="console-center">
        <ErrorAlert focus={false}>{errorText(session.error)}</ErrorAlert>
        <button type="button" className="button button--secondary" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    )
  return (
    <div className="console">
      <Header shop={session.data.shop} email={session.data.email} />
      <main className="console__main" id="main">
        <Suspense fallback={<Spinner label="Loading" />}>
          <Routes>
            <Route index element={<ReturnsScreen />} />
            <Route path="returns/:id" element={<ReturnScreen />} />
            <Route path="receive" element={allowed('returns.receive', <ReceivingScreen />)} />
            <Route path="receive/:id" element={allowed('returns.receive', <ReceivingReturnScreen />)} />
            <Route path="support/:reference" element={allowed('support.open', <SupportScreen />)} />
            <Route path="insights" element={allowed('insights.read', <InsightsScreen />)} />
            <Route path="emails" element={allowed('emails.read', <EmailsScreen />)} />
            <Route path="emails/:id" element={allowed('emails.read', <EmailScreen />)} />
            <Route path="webhooks" element={allowed('webhooks.manage', <WebhooksScreen />)} />
            <Route path="engine-actions" element={allowed('engine.manage', <EngineActionsScreen />)} />
            <Route path="api-keys" element={allowed('apiKeys.manage', <ApiKeysScreen />)} />
            <Route path="store-connection" element={allowed('storeConnection.manage', <StoreConnectionScreen />)} />
            <Route path="reviews" element={allowed('reviews.decide', <ReviewQueueScreen />)} />
            <Route path="policy" element={allowed('policy.read', <PolicyScreen />)} />
            <Route path="staff" element={allowed('staff.manage', <StaffScreen />)} />
            <Route path="audit" element={allowed('audit.read', <AuditScreen />)} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </main>
    </div>
  )
}

/**
 * The header: the brand, the back office's pages and the account. On a phone the pages and the
 * account fold behind a Menu button (a disclosure: aria-expanded, Escape closes it and gives the
 * focus back), so the header stays one row; at desktop width the button is not shown and the pages
 * are one row beside the brand (console.css).
 */
function Header({ shop, email }: { shop: string; email: string }) {
  const [signOut, { isLoading }] = useSignOutMutation()
  const can = useCan()
  const { pathname } = useLocation()
  // Open on the page where it was opened: a page chosen folds it again.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const open = openOn === pathname
  const setOpen = (opened: boolean) => setOpenOn(opened ? pathname : null)
  const button = useRef<HTMLButtonElement>(null)
  const close = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return
    setOpen(false)
    button.current?.focus()
  }
  return (
    <header className="console__header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link to="/" className="console__brand">
        <span className="console__logo" aria-hidden="true">
          R
        </span>
        <span>
          Returns <span className="console__shop">· {shop}</span>
        </span>
      </Link>
      <button
        ref={button}
        type="button"
        className="button button--secondary console__small console__menu-button"
        aria-expanded={open}
        aria-controls="console-menu"
        onClick={() => setOpen(!open)}
      >
        Menu
        {can('reviews.decide') && <ReviewCount />}
      </button>
      <div
        id="console-menu"
        className={`console__menu${open ? ' console__menu--open' : ''}`}
        onKeyDown={close}
        // A link followed, even to the page shown: the menu folds.
        onClick={(event) => {
          if ((event.target as Element).closest('a')) setOpen(false)
        }}
      >
        <nav aria-label="Back office" className="console__nav">
          <ul>
            <li>
              <NavLink to="/" end>
                Returns
              </NavLink>
            </li>
            {can('reviews.decide') && (
              <li>
                <ReviewLink />
              </li>
            )}
            {PAGES.filter(([, , action]) => can(action)).map(([to, label]) => (
              <li key={to}>
                <NavLink to={to}>{label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Account" className="console__account">
          <span className="console__email">{email}</span>
          <button
            type="button"
            className="button button--secondary console__small"
            disabled={isLoading}
            onClick={() => {
              // Leaving on purpose: what this person left unfinished on a shared computer goes too.
              forgetDrafts(email)
              void signOut()
            }}
          >
            Sign out
          </button>
        </nav>
      </div>
    </header>
  )
}

/** The pages after Returns and Review, in the menu's order, each shown to the roles that may open it. */
const PAGES: readonly (readonly [string, string, StaffAction])[] = [
  ['/receive', 'Receive', 'returns.receive'],
  ['/insights', 'Insights', 'insights.read'],
  ['/emails', 'E-mails', 'emails.read'],
  ['/webhooks', 'Webhooks', 'webhooks.manage'],
  ['/engine-actions', 'Store actions', 'engine.manage'],
  ['/api-keys', 'API keys', 'apiKeys.manage'],
  ['/store-connection', 'Store connection', 'storeConnection.manage'],
  ['/policy', 'Policy', 'policy.read'],
  ['/staff', 'Staff', 'staff.manage'],
  ['/audit', 'Audit log', 'audit.read'],
]

/** What each action lets a page do, for the words of a page a role cannot open. */
const CANNOT: Partial<Record<StaffAction, string>> = {
  'returns.receive': 'receive returns',
  'support.open': 'open support references',
  'insights.read': 'see the insights',
  'emails.read': 'read the shoppers’ e-mails',
  'webhooks.manage': 'manage webhooks',
  'engine.manage': 'see the store actions',
  'apiKeys.manage': 'manage API keys',
  'storeConnection.manage': 'manage the store connection',
  'reviews.decide': 'decide reviews',
  'policy.read': 'see the return policy',
  'staff.manage': 'manage the staff',
  'audit.read': 'read the audit log',
}

const allowed = (action: StaffAction, page: ReactElement) => <Allowed action={action}>{page}</Allowed>

/** A page reached by its address that the role cannot use: said plainly, instead of failing. */
function Allowed({ action, children }: { action: StaffAction; children: ReactElement }) {
  const can = useCan()
  const role = useSessionQuery().data?.role
  if (can(action)) return children
  return <NotAllowed words={`Your role (${role}) cannot ${CANNOT[action] ?? action}. Ask an owner of the shop.`} />
}

function NotAllowed({ words }: { words: string }) {
  useConsoleTitle('Not allowed')
  return (
    <section className="console-card">
      <h1>Not for your role</h1>
      <p>{words}</p>
      <p>
        <Link to="/">Back to the returns</Link>
      </p>
    </section>
  )
}

/** How many returns wait for review, beside Menu while the menu is folded (the list says it in words). */
function ReviewCount() {
  const waiting = useReviewsQuery(undefined, { pollingInterval: 60_000 }).data?.total ?? 0
  if (waiting === 0) return null
  return (
    <>
      <span className="console__count" aria-hidden="true">
        {waiting}
      </span>
      <span className="visually-hidden"> ({waiting} returns wait for review)</span>
    </>
  )
}

/** The review queue, with how many returns wait (asked again every minute). */
function ReviewLink() {
  const waiting = useReviewsQuery(undefined, { pollingInterval: 60_000 }).data?.total ?? 0
  return (
    <NavLink to="/reviews">
      Review
      {waiting > 0 ? (
        <>
          <span className="console__count" aria-hidden="true">
            {waiting}
          </span>
          <span className="visually-hidden"> ({waiting} waiting)</span>
        </>
      ) : null}
    </NavLink>
  )
}

function NotFound() {
  useConsoleTitle('Not found')
  return (
    <section className="console-card">
      <h1>Nothing here</h1>
      <p>
        <Link to="/">Back to the returns</Link>
      </p>
    </section>
  )
}

function Loading() {
  return (
    <div className="console-center">
      <Spinner label="Loading" />
    </div>
  )
}
