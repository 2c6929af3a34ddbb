import type { PortalConfig } from '../../contract/api'
import { engines, startApi, type TestApi } from './harness'

describe.each(engines())('configuration on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine)
  })
  afterAll(() => api.close())

  const get = (id: string) => api.app.inject({ method: 'GET', url: `/portal-registration/config/${id}` })

  test('demo: the demo shop’s configuration with its shop and portal id', async () => {
    const response = await get('demo')
    expect(response.statusCode).toBe(200)
    expect(response.json<PortalConfig>()).toMatchObject({
      shop: 'demo',
      portal_id: 'portal-demo',
      button_color: '#1f5fbf',
      gift_card_value_multiplier: 1.1,
    })
  })

  test('demo-de: the German texts over the base configuration, same shop and portal', async () => {
    const base = (await get('demo')).json<PortalConfig>()
    const german = (await get('demo-de')).json<PortalConfig>()
    expect(german.shop).toBe('demo')
    expect(german.portal_id).toBe(base.portal_id)
    expect(german.start_return_message).not.toBe(base.start_return_message)
    expect(german.button_color).toBe(base.button_color)
  })

  test('a language the shop has no variant for falls back to the base configuration', async () => {
    expect((await get('demo-fr')).json()).toEqual((await get('demo')).json())
    expect((await get('demo-pt-br')).json()).toEqual((await get('demo')).json())
  })

  test('a language with a region takes its language’s variant (?lang=de-AT)', async () => {
    expect((await get('demo-de-at')).json()).toEqual((await get('demo-de')).json())
  })

  test.each(['demo-DE', 'demo-De-AT', 'DEMO-de'])(
    'the lang value as the link gives it, in any case: %s is the German variant',
    async (id) => {
      expect((await get(id)).json()).toEqual((await get('demo-de')).json())
    },
  )

  test('acme: order prefix AC, no button colour, no multiplier', async () => {
    const acme = (await get('acme')).json<PortalConfig>()
    expect(acme.order_prefix).toBe('AC')
    expect(acme.button_color).toBeUndefined()
    expect(acme.gift_card_value_multiplier ?? null).toBeNull()
  })

  test.each(['nope', 'nope-de', 'nope-de-at', 'demox-de'])('an unknown portal %s is 404', async (id) => {
    const response = await get(id)
    expect(response.statusCode).toBe(404)
    expect(response.json().error).toBe('unknown_portal')
  })

  test('an id that is not a portal name is a 400, never a 500', async () => {
    const response = await get(encodeURIComponent('../../etc/passwd'))
    expect(response.statusCode).toBe(400)
  })
})
