import type { RouteOptions } from 'fastify'
import { hashPassword } from '../src/domain/passwords'
import { mayDo, ROLES, STAFF_ACTIONS, type Role, type StaffAction } from '../src/domain/roles'
import { addStaff } from '../src/storage/staff'
import { buildShop } from './builders'
import { engines, startApi, staffCookie, type TestApi } from './harness'

/**
 * Roles (docs/back-office.md, "Roles"), generated from the app itself: every console route the
 * app has, as it is registered, and for each one signed in, every role whose table lacks its
 * action is refused with a 403 `not_allowed` before the route runs. A route added later is
 * covered without a line here, and one that names no action fails.
 */

const PASSWORD = 'correct horse battery'
const HOST = 'demo.localhost'
const headers = (cookie?: string) => ({ host: HOST, origin: `http://${HOST}`, ...(cookie ? { cookie } : {}) })

interface ConsoleRoute {
  method: string
  url: string
  action: StaffAction | undefined
}

describe.each(engines())('roles on %s', (engine) => {
  let api: TestApi
  const routes: ConsoleRoute[] = []
  const cookies = {} as Record<Role, string>
  beforeAll(async () => {
    api = await startApi(engine, [buildShop({ shop: 'demo' })], {
      onRoute: (route: RouteOptions) => {
        if (!route.url.startsWith('/admin/api/')) return
        for (const method of [route.method].flat().filter((one) => one !== 'HEAD'))
          routes.push({ method, url: route.url, action: route.config?.staffAction })
      },
    })
    const hash = await hashPassword(PASSWORD)
    for (const role of ROLES) {
      await addStaff(api.db, 'demo', `${role}@demo.example`, hash, new Date(), role)
      cookies[role] = await staffCookie(api.app, `${role}@demo.example`, PASSWORD, HOST)
    }
  }, 120_000)
  afterAll(() => api.close())

  // The hook runs before a body or a parameter is read: any value reaches it.
  const call = (route: ConsoleRoute, cookie?: string) =>
    api.app.inject({
      method: route.method as 'GET',
      url: route.url.replace(/:\w+/g, 'x'),
      headers: headers(cookie),
    })

  /** The routes behind the session: without a cookie, each is a 401 `not_signed_in`. */
  async function signedInRoutes(): Promise<ConsoleRoute[]> {
    const found: ConsoleRoute[] = []
    for (const route of routes) {
      const answer = await call(route)
      if (answer.statusCode === 401 && answer.json<{ error: string }>().error === 'not_signed_in') found.push(route)
    }
    return found
  }

  test('every signed-in console route names one action of the table', async () => {
    const signedIn = await signedInRoutes()
    expect(signedIn.length).toBeGreaterThan(40)
    expect(signedIn.filter((route) => !route.action || !STAFF_ACTIONS.includes(route.action))).toEqual([])
    // Sign-in, sign-out and an invite's acceptance are the only ones outside.
    expect(
      routes
        .filter((route) => !signedIn.includes(route))
        .map((route) => `${route.method} ${route.url}`)
        .sort(),
    ).toEqual(['DELETE /admin/api/session', 'POST /admin/api/invite', 'POST /admin/api/session'])
  })

  test('each role lacking a route’s action is refused with a 403 not_allowed; each holding it gets past the check', async () => {
    const refusedWrongly: string[] = []
    for (const route of await signedInRoutes())
      for (const role of ROLES) {
        const answer = await call(route, cookies[role])
        const refused = answer.statusCode === 403 && answer.json<{ error: string }>().error === 'not_allowed'
        if (refused !== !mayDo(role, route.action!)) refusedWrongly.push(`${role} ${route.method} ${route.url}`)
        if (refused)
          expect(answer.json<{ message: string }>().message).toBe(
            `Your role (${role}) cannot do this (${route.action}). Ask an owner of the shop.`,
          )
      }
    expect(refusedWrongly).toEqual([])
  }, 120_000)

  test('the session says the role and what it may do', async () => {
    for (const role of ROLES) {
      const answer = await api.app.inject({ method: 'GET', url: '/admin/api/session', headers: headers(cookies[role]) })
      expect(answer.json()).toMatchObject({
        role,
        actions: STAFF_ACTIONS.filter((action) => mayDo(role, action)),
      })
    }
  })
})
