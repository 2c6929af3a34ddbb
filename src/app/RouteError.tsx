import { useRouteError } from 'react-router-dom'

/** A route that threw: say so, and offer a fresh start instead of a blank screen. */
export function RouteError() {
  const error = useRouteError()
  console.error(error)
  return (
    <div className="page">
      <div className="page__body">
        <main className="card card__center">
          <h1 className="screen-title">This page could not be shown</h1>
          <p role="alert">Something went wrong while loading this step. Your choices are kept.</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload the page
          </button>
        </main>
      </div>
    </div>
  )
}
