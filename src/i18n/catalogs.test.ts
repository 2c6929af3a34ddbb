import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { UI_LOCALES } from './i18n'

const parts = ['start', 'flow'] as const
const source = (part: string, locale: string) =>
  JSON.parse(readFileSync(join(__dirname, 'catalogs', part, `${locale}.json`), 'utf8')) as Record<string, string>
const compiled = async (part: string, locale: string) =>
  ((await import(`./catalogs/${part}/${locale}`)) as { messages: Record<string, unknown> }).messages

/** What a translation must keep: `{placeholders}` (not plural branches' words) and `<0>` tags. */
function shape(message: string): string[] {
  const names = Array.from(message.matchAll(/\{\s*([A-Za-z]\w*)\s*[,}]/g), (match) => `{${match[1]}}`)
  const tags = Array.from(message.matchAll(/<\/?\d+>/g), (match) => match[0])
  return [...new Set([...names, ...tags])].sort()
}

describe.each(parts)('the %s catalogs', (part) => {
  const english = source(part, 'en')

  test.each(UI_LOCALES.filter((locale) => locale !== 'en'))(
    '%s has no message English lacks, and keeps every placeholder and tag',
    (locale) => {
      const catalog = source(part, locale)
      expect(Object.keys(catalog).filter((id) => !(id in english))).toEqual([])
      for (const [id, message] of Object.entries(catalog))
        expect([id, shape(message)]).toEqual([id, shape(english[id]!)])
    },
  )

  test('German is complete', () => {
    expect(Object.keys(english).filter((id) => !(id in source(part, 'de')))).toEqual([])
  })

  test.each(UI_LOCALES)(
    'compiled %s has every message (a gap is filled with English, never left as an id)',
    async (locale) => {
      expect(Object.keys(await compiled(part, locale)).sort()).toEqual(Object.keys(english).sort())
    },
  )
})
