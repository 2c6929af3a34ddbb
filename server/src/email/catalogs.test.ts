import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { EMAIL_KINDS, INSPECTION_CONDITIONS } from '../../../contract/constants'
import { EMAIL_LANGUAGES } from './renderEmail'

/** The e-mails' words (docs/events.md): every language says every message, with the same placeholders. */

const source = (locale: string) =>
  JSON.parse(readFileSync(join(__dirname, 'catalogs', `${locale}.json`), 'utf8')) as Record<string, string>
const english = source('en')
const placeholders = (message: string) =>
  [...new Set(Array.from(message.matchAll(/\{\s*([A-Za-z]\w*)\s*[,}]/g), (match) => match[1]))].sort()

describe('the e-mail catalogs', () => {
  test.each(EMAIL_LANGUAGES.filter((locale) => locale !== 'en'))(
    '%s has every English message and no other, each keeping its placeholders',
    (locale) => {
      const catalog = source(locale)
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort())
      for (const [id, message] of Object.entries(catalog))
        expect([id, placeholders(message)]).toEqual([id, placeholders(english[id]!)])
    },
  )

  test('English names every kind’s subject and heading, and every inspected condition', () => {
    const prefixes: Record<(typeof EMAIL_KINDS)[number], string> = {
      created: 'created',
      received: 'received',
      refunded: 'refunded',
      new_item_sent: 'newItem',
      approved: 'approved',
      rejected: 'rejected',
      cancelled: 'cancelled',
    }
    for (const kind of EMAIL_KINDS) {
      expect(english).toHaveProperty([`${prefixes[kind]}.subject`])
      expect(english).toHaveProperty([`${prefixes[kind]}.heading`])
    }
    for (const condition of INSPECTION_CONDITIONS) expect(english).toHaveProperty([`condition.${condition}`])
  })
})
