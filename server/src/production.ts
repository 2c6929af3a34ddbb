/**
 * The first import of server.ts. The server as shipped renders its e-mails with React's production
 * build unless NODE_ENV says otherwise: the development build checks and warns on every render,
 * on the thread that answers every request (docs/performance.md). React picks its build when it
 * is first required, so this runs before anything that imports it.
 */
process.env.NODE_ENV ??= 'production'

export {}
