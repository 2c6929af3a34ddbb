import fc from 'fast-check'
import { CONFIG_TEXT_FIELDS, CONFIG_URL_FIELDS } from '../api/configFields'
import { encodeConfigOverride, parseConfigOverride } from './configOverride'

const hostileString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.constantFrom(
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'red;background:url(javascript:alert(1))',
    'expression(alert(1))',
    '"><svg onload=alert(1)>',
    '\u0000\u2028\u2029',
    'x'.repeat(100_000),
  ),
)
const field = fc.constantFrom(
  ...CONFIG_TEXT_FIELDS,
  ...CONFIG_URL_FIELDS,
  'button_color',
  'gift_card_value_multiplier',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
)
const anyValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string()),
  fc.object(),
)
const payload = fc.dictionary(fc.oneof(field, fc.string()), anyValue, { maxKeys: 12 })

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}))
afterEach(() => jest.restoreAllMocks())

test('any JSON object as an override: never throws, keeps only safe values, pollutes nothing', () => {
  fc.assert(
    fc.property(payload, (raw) => {
      const { config } = parseConfigOverride(encodeConfigOverride(raw))
      for (const [key, value] of Object.entries(config)) {
        if ((CONFIG_URL_FIELDS as readonly string[]).includes(key)) expect(String(value)).toMatch(/^https?:\/\//)
        else if (key === 'button_color') expect(String(value)).toMatch(/^#[0-9a-f]{6}([0-9a-f]{2})?$/)
        else if (key === 'gift_card_value_multiplier')
          expect(value === null || (typeof value === 'number' && value >= 1 && value <= 10)).toBe(true)
        else {
          expect((CONFIG_TEXT_FIELDS as readonly string[]).includes(key)).toBe(true)
          expect(typeof value).toBe('string')
          // eslint-disable-next-line no-control-regex -- no control character but a line break may pass
          expect(String(value)).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/)
          expect(String(value).length).toBeLessThanOrEqual(2001)
        }
      }
      expect(Object.getPrototypeOf(config)).toBe(Object.prototype)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    }),
    { numRuns: 3000 },
  )
})

test('any string as the config parameter: never throws', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 500 }), fc.base64String({ maxLength: 500 })), (param) => {
      const result = parseConfigOverride(param)
      expect(typeof result.config).toBe('object')
    }),
    { numRuns: 3000 },
  )
})
