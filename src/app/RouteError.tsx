import { Component, type ErrorInfo, type ReactNode } from 'react'

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
    if (!this.state.failed) return this.props.children
    return (
      <div className="card__center">
        <h1 className="screen-title">This page could not be shown</h1>
        <p role="alert">Something went wrong while loading this step. Your choices are kept.</p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    )
  }
}
