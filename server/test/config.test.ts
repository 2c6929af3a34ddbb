import type { ApiError, PortalConfig } from '../../contract/api'
import { buildShop } from './builders'
import { engines, startApi, type TestApi } from './harness'

/** A shop with a German variant of its texts, and one with an order prefix and no colours. */
const NORTH = buildShop({
  shop: 'north',
  config: { button_color: '#1f5fbf', gift_card_value_multiplier: 1.1, start_return_message: 'Start your return' },
  config_variants: { de: { start_return_message: 'Starten Sie Ihre Rücksendung' } },
})
const SOUTH = buildShop({ shop: 'south', config: { order_prefix: 'SO' } })

describe.each(engines())('configuration on %s', (engine) => {
  let api: TestApi
  beforeAll(async () => {
    api = await startApi(engine, [NORTH, SOUTH])
  })
  afterAll(() => api.close())

  const get = (id: string) => api.app.inject({ method: 'GET', url: `/portal-registration/config/${id}` })

  test('a shop’s configuration with its shop and portal id', async () => {
    const response = await get('north')
    expect(response.statusCode).toBe(200)
    expect(response.json<PortalConfig>()).toEqual({
      shop: 'north',
      portal_id: 'portal-north',
      button_color: '#1f5fbf',
      gift_card_value_multiplier: 1.1,
      start_return_message: 'Start your return',
    })
  })

  test('shop-de: the German texts over the base configuration, same shop and portal', async () => {
    const german = (await get('north-de')).json<PortalConfig>()
    expect(german).toEqual({
      ...(await get('north')).json<PortalConfig>(),
      start_return_message: 'Starten Sie Ihre Rücksendung',
    })
  })

  test('a language the shop has no variant for falls back to the base configuration', async () => {
    expect((await get('north-fr')).json()).toEqual((await get('north')).json())
    expect((await get('north-pt-br')).json()).toEqual((await get('north')).json())
  })

  test('Content-Language names the language of the shop’s texts: the variant’s, else English', async () => {
    expect((await get('north-de')).headers['content-language']).toBe('de')
    expect((await get('north-DE-at')).headers['content-language']).toBe('de')
    expect((await get('north-fr')).headers['content-language']).toBe('en')
    expect((await get('north')).headers['content-language']).toBe('en')
  })

  test('a language with a region takes its language’s variant (?lang=de-AT)', async () => {
    expect((await get('north-de-at')).json()).toEqual((await get('north-de')).json())
  })

  test.each(['north-DE', 'north-De-AT', 'NORTH-de'])(
    'the lang value as the link gives it, in any case: %s is the German variant',
    async (id) => {
      expect((await get(id)).json()).toEqual((await get('north-de')).json())
    },
  )

  test('another shop: its order prefix, no button colour, no multiplier', async () => {
    expect((await get('south')).json<PortalConfig>()).toEqual({
      shop: 'south',
      portal_id: 'portal-south',
      order_prefix: 'SO',
    })
  })

  test.each(['nope', 'nope-de', 'nope-de-at', 'northx-de'])('an unknown portal %s is 404', async (id) => {
    const response = await get(id)
    expect(response.statusCode).toBe(404)
    expect(response.json<ApiError>().error).toBe('unknown_portal')
  })

  test('an id that is not a portal name is a 400, never a 500', async () => {
    const response = await get(encodeURIComponent('../../etc/passwd'))
    expect(response.statusCode).toBe(400)
  })
})
