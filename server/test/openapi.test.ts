import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { DOCS_PATH, OPENAPI_PATH, OPERATIONS } from '../src/openapi'
import { engines, startApi, type TestApi } from './harness'

/**
 * The routes that are not calls of the API, and so not in the document (server/src/openapi.ts):
 * each with why.
 */
const NOT_CALLS: [RegExp, string][] = [
  [/^GET \/demo-assets\/\*$/, 'the demo shops’ images: files'],
  [/^GET \/api\/openapi\.json$/, 'the document itself'],
  [/^GET \/api\/docs(\/.*)?$/, 'the page that reads the document, and its scripts and styles'],
  [/^GET \/$/, 'the portal’s page, a page of the build'],
  [/^GET \/(index|admin)\.html$|^GET \/env\.js$|^GET \/assets\//, 'the files of the portal’s build'],
]

interface Document {
  openapi: string
  paths: Record<string, Record<string, { summary?: string; tags?: string[]; security?: Record<string, string[]>[] }>>
  components: { securitySchemes: Record<string, unknown> }
}

/**
 * Every route of the app as `METHOD url` (HEAD left out: Fastify adds one to each GET), read from
 * the tree of `printRoutes`, where each level is indented by four characters and a node's path is
 * its parent's followed by its own label (the common prefixes, which show wildcards as they are).
 */
function routesOf(app: FastifyInstance): string[] {
  const stack: string[] = []
  const routes: string[] = []
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([^)]+)\))?$/.exec(line)
    if (!match) continue
    const depth = [...match[1]!].length / 4
    stack.length = depth
    const url = (stack[depth - 1] ?? '') + match[2]!
    stack.push(url)
    for (const method of (match[3] ?? '').split(', ').filter((one) => one && one !== 'HEAD'))
      routes.push(`${method} ${url}`)
  }
  return routes
}

/** `/returns/:id` as OpenAPI writes it: `/returns/{id}`. */
const documented = (route: string) => {
  const [method, url] = route.split(' ') as [string, string]
  return [method.toLowerCase(), url.replace(/:(\w+)/g, '{$1}')] as const
}

const notACall = (route: string) => NOT_CALLS.some(([pattern]) => pattern.test(route))

describe.each(engines())('the API described on %s', (engine) => {
  let root: string
  let api: TestApi
  let document: Document
  beforeAll(async () => {
    // A stand-in for the portal's build, so that its pages and files are among the routes too.
    root = mkdtempSync(join(tmpdir(), 'rebound-openapi-'))
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Rebound</title>')
    writeFileSync(join(root, 'admin.html'), '<!doctype html><title>Returns back office</title>')
    api = await startApi(engine, [], { adminToken: 'the-admin-token', staticDir: root })
    const response = await api.app.inject({ method: 'GET', url: OPENAPI_PATH })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('application/json')
    document = response.json<Document>()
  })
  afterAll(async () => {
    await api.close()
    rmSync(root, { recursive: true, force: true })
  })

  test('the document is valid OpenAPI', async () => {
    // An ES module: imported as one.
    const { Validator } = await import('@seriousme/openapi-schema-validator')
    const result = await new Validator().validate(document as unknown as Record<string, unknown>)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(document.openapi).toMatch(/^3\.1\./)
  })

  test('every route is in the document with its method, but pages and files', () => {
    const routes = routesOf(api.app)
    expect(routes).toContain('POST /portal-registration/verify')
    expect(routes).toContain('GET /demo-assets/*')
    const missing = routes
      .filter((route) => !notACall(route))
      .filter((route) => {
        const [method, path] = documented(route)
        return document.paths[path]?.[method] === undefined
      })
    expect(missing).toEqual([])
    // And nothing else: no page or file is described as a call.
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    )
    const calls = routes.filter((route) => !notACall(route)).map((route) => documented(route).join(' '))
    expect(described.sort()).toEqual(calls.sort())
  })

  test('every call has a group and a summary, and every summary a call', () => {
    const unsummarised = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => !operation.summary || operation.tags?.length !== 1)
        .map(([method]) => `${method} ${path}`),
    )
    expect(unsummarised).toEqual([])
    const routes = routesOf(api.app)
    expect(Object.keys(OPERATIONS).filter((operation) => !routes.includes(operation))).toEqual([])
  })

  test('a call the document says needs a token or a session is refused without one', async () => {
    const guarded = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(
          ([, operation]) =>
            operation.security?.length && operation.security.every((one) => Object.keys(one).length > 0),
        )
        .map(([method]) => [method.toUpperCase(), path.replace(/\{\w+\}/g, 'x')] as const),
    )
    expect(guarded.length).toBeGreaterThan(30)
    const answers = await Promise.all(
      guarded.map(async ([method, url]) => {
        // The console's same-origin check comes first for a call that changes something.
        const response = await api.app.inject({ method, url, headers: { 'sec-fetch-site': 'same-origin' } })
        return `${method} ${url} ${response.statusCode}`
      }),
    )
    expect(answers).toEqual(guarded.map(([method, url]) => `${method} ${url} 401`))
  })

  test('the readable page answers with HTML whose scripts and styles its policy allows', async () => {
    const page = await api.app.inject({ method: 'GET', url: DOCS_PATH })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toContain('text/html')
    const policy = String(page.headers['content-security-policy'])
    expect(policy).toContain("script-src 'self';")
    expect(policy).toContain("frame-ancestors 'none'")
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
    expect(assets.length).toBeGreaterThan(3)
    for (const asset of assets) {
      // Files of this origin only: the policy allows no other.
      expect(asset.startsWith(`${DOCS_PATH}/`)).toBe(true)
      const response = await api.app.inject({ method: 'GET', url: asset })
      expect(`${asset} ${response.statusCode}`).toBe(`${asset} 200`)
    }
    // The page reads the document beside it.
    expect((await api.app.inject({ method: 'GET', url: `${DOCS_PATH}/json` })).json()).toEqual(document)
  })

  test('an unknown path under /api/ is the API’s 404, not the portal’s page', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/nothing-here' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'not_found', message: 'No route for GET /api/nothing-here' })
  })
})
