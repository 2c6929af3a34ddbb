import { cssColors } from './color'
import { decodeBase64Utf8, encodeConfigOverride, parseConfigOverride } from './configOverride'

const standard = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64')
const urlSafe = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url')

// A preview reads any CSS colour: the portal loads the colour chunk for it (useShopConfig).
beforeAll(() => cssColors.load())
beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}))
afterEach(() => jest.restoreAllMocks())

describe('parseConfigOverride', () => {
  test.each([
    ['standard base64', standard({ start_return_message: 'Hallo ✓ Rückgabe' })],
    ['URL-safe base64 without padding', urlSafe({ start_return_message: 'Hallo ✓ Rückgabe' })],
    [
      'standard base64 whose + became a space in the query',
      standard({ start_return_message: 'Hallo ✓ Rückgabe' }).replace(/\+/g, ' '),
    ],
  ])('decodes %s', (_name, param) => {
    expect(parseConfigOverride(param).config).toEqual({ start_return_message: 'Hallo ✓ Rückgabe' })
  })

  test('an override made by encodeConfigOverride round-trips', () => {
    const param = encodeConfigOverride({ button_color: 'rebeccapurple', need_help_message: '¿Ayuda? 🙂' })
    expect(parseConfigOverride(param)).toEqual({
      config: { button_color: '#663399', need_help_message: '¿Ayuda? 🙂' },
      warnings: [],
    })
  })

  test.each([
    ['not base64', '%%%not-base64%%%'],
    ['base64 of invalid UTF-8', Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')],
    ['base64 of text that is not JSON', Buffer.from('hello').toString('base64')],
    ['a JSON array', standard([1, 2])],
    ['JSON null', standard(null)],
    ['a JSON string', standard('x')],
    ['far too long', 'A'.repeat(20_000)],
    ['empty', ''],
  ])('ignores %s with a warning', (_name, param) => {
    const result = parseConfigOverride(param)
    expect(result.config).toEqual({})
    expect(result.warnings.length).toBeGreaterThan(0)
  })

  test('keeps good fields and drops bad ones, field by field', () => {
    const { config, warnings } = parseConfigOverride(
      standard({
        start_return_message: 'Welcome',
        need_help_message: 42,
        logo_src: 'javascript:alert(1)',
        website_url: 'https://shop.example.com/',
        background_src: 'data:image/svg+xml,<svg onload=alert(1)>',
        favicon_src: 'http://cdn.example.com/f.ico',
        button_color: 'red; background: url(https://evil.example/x)',
        gift_card_value_multiplier: '1.2',
        unknown_field: true,
      }),
    )
    expect(config).toEqual({
      start_return_message: 'Welcome',
      website_url: 'https://shop.example.com/',
      favicon_src: 'http://cdn.example.com/f.ico',
    })
    expect(warnings).toHaveLength(6)
    expect(warnings.join('\n')).toMatch(/need_help_message/)
    expect(warnings.join('\n')).toMatch(/logo_src/)
    expect(warnings.join('\n')).toMatch(/button_color/)
  })

  test('texts stay text: markup is kept as characters, control characters removed', () => {
    const { config } = parseConfigOverride(standard({ start_return_message: '<img src=x onerror=alert(1)>\u0007Hi' }))
    expect(config.start_return_message).toBe('<img src=x onerror=alert(1)>Hi')
  })

  test('prototype-pollution keys are ignored and pollute nothing', () => {
    const { config } = parseConfigOverride(
      Buffer.from('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}').toString('base64'),
    )
    expect(config).toEqual({})
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  test('an override cannot change which shop the portal verifies against', () => {
    const result = parseConfigOverride(standard({ shop: 'other-shop', portal_id: 'p2', document_title_text: 'Hi' }))
    expect(result.config).toEqual({ document_title_text: 'Hi' })
    expect(result.warnings.join('\n')).toMatch(/shop/)
  })

  test.each([
    [1.25, 1.25],
    [null, null],
  ])('gift_card_value_multiplier %j is kept', (value, expected) => {
    expect(parseConfigOverride(standard({ gift_card_value_multiplier: value })).config.gift_card_value_multiplier).toBe(
      expected,
    )
  })

  test.each([[0.5], [-1], [1e9]])('gift_card_value_multiplier %j is ignored', (value) => {
    expect(parseConfigOverride(standard({ gift_card_value_multiplier: value })).config).toEqual({})
  })

  test('very long texts are cut', () => {
    const { config } = parseConfigOverride(standard({ need_help_message: 'x'.repeat(5000) }))
    expect(config.need_help_message!.length).toBeLessThanOrEqual(2001)
  })
})

test('decodeBase64Utf8 rejects impossible lengths', () => {
  expect(decodeBase64Utf8('abcde')).toBeNull()
})
