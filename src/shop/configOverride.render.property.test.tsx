import { cleanup, screen } from '@testing-library/react'
import fc from 'fast-check'
import { CONFIG_TEXT_FIELDS, CONFIG_URL_FIELDS } from '../api/configFields'
import { renderPortal } from '../testing/renderWithProviders'
import { TEST_MS } from '../testing/timing'
import { encodeConfigOverride } from './configOverride'

/**
 * The start screen rendered under any `config` override: it renders (no crash), shows the
 * Preview marker, runs no script, makes no markup of a text, and links and loads only http(s).
 */

const attack = fc.constantFrom(
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 1">',
  '"><svg onload="window.__pwned = 1">',
  '<b>bold</b><iframe src="javascript:window.__pwned = 1"></iframe>',
  'javascript:window.__pwned = 1',
  ' JaVaScRiPt:window.__pwned = 1',
  'data:text/html,<script>window.__pwned = 1</script>',
  'data:image/svg+xml,<svg onload="window.__pwned = 1"/>',
  'vbscript:msgbox(1)',
  'red;background:url(javascript:window.__pwned=1)',
  'expression(window.__pwned = 1)',
  '#fff}body{display:none',
  '\u0000\u202e\u2028',
  'x'.repeat(20_000),
)
const anyValue = fc.oneof(
  attack,
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(attack, { maxLength: 2 }),
  fc.dictionary(fc.string(), attack, { maxKeys: 2 }),
)
const field = fc.constantFrom(
  ...CONFIG_TEXT_FIELDS,
  ...CONFIG_URL_FIELDS,
  'button_color',
  'gift_card_value_multiplier',
  '__proto__',
  'constructor',
  'toString',
)
const override = fc.oneof(
  fc.dictionary(field, anyValue, { minKeys: 1, maxKeys: 8 }).map((payload) => encodeConfigOverride(payload)),
  // Not even an encoded object: the marker shows all the same.
  fc.oneof(fc.string({ maxLength: 40 }), fc.base64String({ maxLength: 60 })).filter((text) => text.trim() !== ''),
)

const SAFE_URL = /^(https?:\/\/|\/(?!\/))/

// 150 renders of the start screen: a multiple of one test's limit (a busy machine took over 4 minutes).
jest.setTimeout(10 * TEST_MS)

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}))
afterEach(() => jest.restoreAllMocks())

test('any override, hostile or garbage: the start screen renders with the Preview marker, and nothing in it is live', async () => {
  await fc.assert(
    fc.asyncProperty(override, async (param) => {
      try {
        renderPortal({ route: `/?config=${encodeURIComponent(param)}` })
        await screen.findByRole('textbox', { name: 'Order number' })
        expect(screen.getByRole('complementary', { name: 'Preview' })).toBeInTheDocument()
        expect(document.querySelectorAll('script, iframe, object, embed, b, svg[onload]')).toHaveLength(0)
        const handlers = [...document.querySelectorAll('*')].filter((element) =>
          [...element.attributes].some((attribute) => attribute.name.startsWith('on')),
        )
        expect(handlers).toEqual([])
        // Links go to http(s), or write to an address of the help text (mailto:, no script scheme).
        for (const link of document.querySelectorAll('a[href], link[href]'))
          expect(link.getAttribute('href')).toMatch(
            link.classList.contains('help-email') ? /^mailto:[^\s:]+$/ : SAFE_URL,
          )
        for (const image of document.querySelectorAll('img[src]')) expect(image.getAttribute('src')).toMatch(SAFE_URL)
        const colour = document.documentElement.style.getPropertyValue('--button-bg')
        expect(colour === '' || /^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(colour)).toBe(true)
        expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined()
      } finally {
        cleanup()
        document.documentElement.removeAttribute('style')
      }
    }),
    { numRuns: 150 },
  )
})
