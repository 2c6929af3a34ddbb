import { Component, type ErrorInfo, type ReactNode } from 'react'
import { useT } from '../i18n/useT'

interface State {
  failed: boolean
}

/** A screen that threw: say so and offer a reload, instead of a blank page. Choices are persisted. */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  state: State = { failed: false }

  static getDerivedStateFromError(): State {
    return { failed: true }
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack)
  }

  componentDidUpdate(previous: { resetKey: string }) {
    // Navigating elsewhere gives the next screen a fresh chance.
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false })
  }

  render() {
    return this.state.failed ? <RouteFailed /> : this.props.children
  }
}

function RouteFailed() {
  const t = useT()
  return (
    <div className="card__center">
      <h1 className="screen-title">{t('routeError.title')}</h1>
      <p role="alert">{t('routeError.message')}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
    </div>
  )
}
