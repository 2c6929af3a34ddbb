import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LIMITS, formatPath, normaliseOrderName, resolveDate, validateShopFile } from './validateShopFile'
import type { ShopFile } from './shopFile'
import { allReasons } from '../../../contract/reasonTree'

const demoDir = join(__dirname, '../../demo')
const readDemo = (name: string): ShopFile => JSON.parse(readFileSync(join(demoDir, name), 'utf8')) as ShopFile

/** A small valid file; each case below breaks one thing of a fresh copy. */
function minimal(): ShopFile {
  return {
    shop: 'test-shop',
    currency_code: 'EUR',
    settings: { return_window_days: 30, return_fee: '0.00', prices_include_tax: true, upsell_enabled: true },
    config: {
      portal_id: 'portal-test',
      logo_src: '/demo-assets/logo.svg',
      website_url: 'https://shop.example.com',
      button_color: '#1f5fbf',
    },
    config_variants: { de: { start_return_message: 'Rücksendung starten' } },
    return_reasons: [
      { id: 'too_small', label: 'Too small', comment_required: false },
      { id: 'other', label: 'Other reason', comment_required: true },
    ],
    return_reason_variants: { de: { too_small: 'Zu klein' } },
    return_address: {
      name: 'Returns',
      line1: 'Hafenstraße 12',
      city: 'Hamburg',
      postal_code: '20457',
      country_code: 'DE',
    },
    catalogue: [
      {
        id: 'tee',
        title: 'Classic Tee',
        image_src: '/demo-assets/tee-white.svg',
        variants: [
          { id: 'tee-s', options: [{ name: 'Size', value: 'S' }], price: '25.00' },
          { id: 'tee-m', options: [{ name: 'Size', value: 'M' }], price: '25.00' },
        ],
      },
      {
        id: 'mug',
        title: 'Ceramic Mug',
        exchangeable: false,
        variants: [{ id: 'mug-default', options: [], price: '14.00' }],
      },
    ],
    orders: [
      {
        name: '#1001',
        email: 'jane@example.com',
        processed_at: '2026-02-27T09:00:00Z',
        fulfilled_at: '2026-03-01T10:00:00Z',
        line_items: [
          { id: 'li-1', variant_id: 'tee-m', quantity: 2, price: '25.00', tax_rate: '0.19' },
          { id: 'li-2', variant_id: 'mug-default', quantity: 1, price: '14.00', tax_rate: '0.19' },
        ],
        returns: [[{ line_item_id: 'li-1', quantity: 1 }]],
      },
      {
        name: '#1002',
        email: 'sam@example.com',
        processed_at: '2026-02-27',
        fulfilled_at: null,
        line_items: [{ id: 'li-1', variant_id: null, title: 'Gift wrap', quantity: 1, price: '2.50', tax_rate: '0' }],
      },
    ],
  }
}

type Mutable = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function errorsOf(input: unknown): string[] {
  const result = validateShopFile(input)
  if (result.ok) throw new Error('expected the file to be rejected')
  return result.errors
}

describe('validateShopFile: valid files', () => {
  it.each(['demo.json', 'acme.json'])('accepts the demo file %s', (name) => {
    const result = validateShopFile(readDemo(name))
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it('accepts the minimal file and returns it typed', () => {
    const file = minimal()
    const result = validateShopFile(file)
    expect(result).toEqual({ ok: true, file })
  })

  it.each<[string, (f: Mutable) => void]>([
    ['a CSS colour name', (f) => (f.config.button_color = 'rebeccapurple')],
    ['an rgb() colour', (f) => (f.config.button_color = 'rgb(31 95 191)')],
    [
      'no button colour and a null multiplier',
      (f) => {
        delete f.config.button_color
        f.config.gift_card_value_multiplier = null
      },
    ],
    ['an http URL', (f) => (f.config.logo_src = 'http://cdn.example.com/logo.png')],
    ['an ISO timestamp with an offset', (f) => (f.orders[0].processed_at = '2026-02-28T23:30:00.123+01:00')],
    [
      'relative dates in hours and minutes',
      (f) => {
        f.orders[0].processed_at = 'now-12h'
        f.orders[0].fulfilled_at = 'now+30m'
      },
    ],
    [
      'the first and the last instant of the dates accepted',
      (f) => {
        f.orders[0].processed_at = '1970-01-01T00:00:00Z'
        f.orders[0].fulfilled_at = '9999-12-31T23:59:59.999Z'
      },
    ],
    [
      'the last day of the dates accepted, by an offset that keeps it in 9999 in UTC',
      (f) => (f.orders[0].fulfilled_at = '9999-12-31T23:30:00+01:00'),
    ],
    ['order names that differ only by more than "#" and case', (f) => (f.orders[1].name = '1001-B')],
    ['a whole-number amount', (f) => (f.orders[0].line_items[0].price = '25')],
    [
      'a 3-digit amount in a currency with 3 minor digits',
      (f) => {
        f.currency_code = 'BHD'
        f.settings.return_fee = '0.500'
      },
    ],
    ['an order discount', (f) => (f.orders[0].discount = '10.00')],
    ['an exchange order line', (f) => (f.orders[0].line_items[0].exchange_variant_id = 'tee-s')],
    [
      'an order prefix matched by the order names',
      (f) => {
        f.config.order_prefix = 'AC'
        f.orders[0].name = 'AC1001'
        f.orders[1].name = 'exc2001'
      },
    ],
  ])('accepts %s', (_, mutate) => {
    const file = minimal() as Mutable
    mutate(file)
    const result = validateShopFile(file)
    expect(result.ok ? [] : result.errors).toEqual([])
  })
})

describe('validateShopFile: invalid files name the bad field', () => {
  it.each<[string, (f: Mutable) => void, string]>([
    [
      'an amount as a number',
      (f) => (f.orders[0].line_items[0].price = 25),
      'orders[0].line_items[0].price: must be a decimal amount like "25.00"',
    ],
    [
      'an amount with a comma',
      (f) => (f.orders[0].line_items[0].price = '25,00'),
      'orders[0].line_items[0].price: must be a decimal amount like "25.00"',
    ],
    [
      'too many decimals for the currency',
      (f) => (f.catalogue[0].variants[1].price = '25.001'),
      'catalogue[0].variants[1].price: must have at most 2 decimal places in EUR, like "25.00"',
    ],
    [
      'decimals in a currency without minor units',
      (f) => {
        f.currency_code = 'JPY'
        f.settings.return_fee = '0'
      },
      'catalogue[0].variants[0].price: must be a whole amount in JPY, like "25"',
    ],
    ['a button colour of the wrong type', (f) => (f.config.button_color = 12), 'config.button_color: must be a string'],
    [
      'a button colour that is no CSS colour',
      (f) => (f.config.button_color = 'blurple'),
      'config.button_color: must be a CSS colour',
    ],
    [
      'a CSS injection in the colour',
      (f) => (f.config.button_color = 'red; background: url(x)'),
      'config.button_color: must be a CSS colour',
    ],
    [
      'a colour in a language variant',
      (f) => (f.config_variants.de.button_color = 'nope'),
      'config_variants.de.button_color: must be a CSS colour',
    ],
    [
      'a typo in a field name',
      (f) => {
        f.config.buton_color = f.config.button_color
        delete f.config.button_color
      },
      'config.buton_color: is not a field of the shop file format',
    ],
    [
      'shop inside config',
      (f) => (f.config.shop = 'test-shop'),
      'config.shop: is not a field of the shop file format (check the spelling) (the shop is taken from the top-level "shop")',
    ],
    ['a missing required field', (f) => delete f.orders[1].email, 'orders[1].email: is required'],
    ['a missing portal id', (f) => delete f.config.portal_id, 'config.portal_id: is required'],
    [
      'an invalid e-mail',
      (f) => (f.orders[0].email = 'jane at example.com'),
      'orders[0].email: must be an e-mail address',
    ],
    ['a shop id with upper case', (f) => (f.shop = 'Acme'), 'shop: must be a lower-case DNS label'],
    ['a shop id with a leading dash', (f) => (f.shop = '-acme'), 'shop: must be a lower-case DNS label'],
    ['a shop id too long for a DNS label', (f) => (f.shop = 'a'.repeat(64)), 'shop: must be at most 63 characters'],
    [
      'a shop id that looks like a language variant',
      (f) => (f.shop = 'acme-de'),
      'shop: must not end in "-" and two letters',
    ],
    ['an unknown currency', (f) => (f.currency_code = 'XYZ'), 'currency_code: "XYZ" is not an ISO 4217 currency code'],
    [
      'a lower-case currency',
      (f) => (f.currency_code = 'eur'),
      'currency_code: must be an ISO 4217 currency code like "EUR"',
    ],
    [
      'a tax rate of 1',
      (f) => (f.orders[0].line_items[1].tax_rate = '1'),
      'orders[0].line_items[1].tax_rate: must be a decimal rate from 0 up to (not including) 1',
    ],
    [
      'a tax rate as a percentage',
      (f) => (f.orders[0].line_items[1].tax_rate = '19'),
      'orders[0].line_items[1].tax_rate: must be a decimal rate',
    ],
    [
      'a multiplier below 1',
      (f) => (f.config.gift_card_value_multiplier = 0.9),
      'config.gift_card_value_multiplier: must be null or a number from 1 to 10',
    ],
    [
      'a multiplier above 10',
      (f) => (f.config.gift_card_value_multiplier = 11),
      'config.gift_card_value_multiplier: must be null or a number from 1 to 10',
    ],
    [
      'a date in no known format',
      (f) => (f.orders[0].processed_at = '07/03/2026'),
      'orders[0].processed_at: must be an ISO 8601 date',
    ],
    [
      'an impossible calendar date',
      (f) => (f.orders[0].processed_at = '2026-02-30T10:00:00Z'),
      'orders[0].processed_at: must be an ISO 8601 date',
    ],
    [
      'a relative date in weeks',
      (f) => (f.orders[0].processed_at = 'now-2w'),
      'orders[0].processed_at: must be an ISO 8601 date',
    ],
    [
      'fulfilment before the order',
      (f) => {
        f.orders[0].processed_at = 'now-1d'
        f.orders[0].fulfilled_at = 'now-2d'
      },
      'orders[0].fulfilled_at: must not be before processed_at',
    ],
    // Dates JavaScript reads but PostgreSQL refuses or stores as another day: refused by name, before any write.
    [
      'a date in the year 0000',
      (f) => (f.orders[0].processed_at = '0000-06-01T00:00:00Z'),
      'orders[0].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a date in the year 0001',
      (f) => (f.orders[1].processed_at = '0001-01-01'),
      'orders[1].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a date just before 1970',
      (f) => (f.orders[0].fulfilled_at = '1969-12-31T23:59:59.999Z'),
      'orders[0].fulfilled_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      '1970-01-01 by an offset that makes it 1969 in UTC',
      (f) => (f.orders[0].processed_at = '1970-01-01T00:30:00+01:00'),
      'orders[0].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      '9999-12-31 by an offset that makes it the year 10000 in UTC',
      (f) => (f.orders[0].fulfilled_at = '9999-12-31T23:00:00-05:00'),
      'orders[0].fulfilled_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a relative date before 1970',
      (f) => (f.orders[0].processed_at = 'now-999999d'),
      'orders[0].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a tracked return created in the year 0000',
      (f) =>
        (f.orders[0].tracked_returns = [
          { created_at: '0000-03-02', items: [{ line_item_id: 'li-2', quantity: 1, reason_id: 'too_small' }] },
        ]),
      'orders[0].tracked_returns[0].created_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a tracked return refunded in the year 10000',
      (f) =>
        (f.orders[0].tracked_returns = [
          {
            created_at: 'now',
            items: [{ line_item_id: 'li-2', quantity: 1, reason_id: 'too_small' }],
            progress: { refunded: '9999-12-31T23:59:59-00:01' },
          },
        ]),
      'orders[0].tracked_returns[0].progress.refunded: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    ['a duplicate product id', (f) => (f.catalogue[1].id = 'tee'), 'catalogue[1].id: "tee" is used by another product'],
    [
      'a duplicate variant id across products',
      (f) => (f.catalogue[1].variants[0].id = 'tee-s'),
      'catalogue[1].variants[0].id: "tee-s" is used by another variant of the catalogue',
    ],
    [
      'order names equal after normalisation',
      (f) => (f.orders[1].name = ' 1001 '),
      'orders[1].name: " 1001 " is the same order name as another order',
    ],
    [
      'a duplicate line item id',
      (f) => (f.orders[0].line_items[1].id = 'li-1'),
      'orders[0].line_items[1].id: "li-1" is used by another line item of this order',
    ],
    [
      'a duplicate return reason id',
      (f) => (f.return_reasons[1].id = 'too_small'),
      'return_reasons[1].id: "too_small" is used by another return reason',
    ],
    [
      'an unknown variant',
      (f) => (f.orders[0].line_items[0].variant_id = 'tee-xxl'),
      'orders[0].line_items[0].variant_id: "tee-xxl" is not a variant id of the catalogue',
    ],
    [
      'an unknown exchange variant',
      (f) => (f.orders[0].line_items[0].exchange_variant_id = 'gone'),
      'orders[0].line_items[0].exchange_variant_id: "gone" is not a variant id of the catalogue',
    ],
    [
      'a return of an unknown line',
      (f) => (f.orders[0].returns[0][0].line_item_id = 'li-9'),
      'orders[0].returns[0][0].line_item_id: "li-9" is not a line item id of this order',
    ],
    [
      'a return of zero units',
      (f) => (f.orders[0].returns[0][0].quantity = 0),
      'orders[0].returns[0][0].quantity: must be a whole number from 1',
    ],
    [
      'more units returned than bought',
      (f) => f.orders[0].returns.push([{ line_item_id: 'li-1', quantity: 2 }]),
      'orders[0].returns[1][0].quantity: returns 3 units of line item "li-1" in all, but only 2 were bought',
    ],
    ['an empty return', (f) => f.orders[0].returns.push([]), 'orders[0].returns[1]: must have at least 1 entry'],
    [
      'a javascript: URL',
      (f) => (f.config.website_url = 'javascript:alert(1)'),
      'config.website_url: must be an http(s) URL or an absolute path',
    ],
    [
      'a protocol-relative URL',
      (f) => (f.config.logo_src = '//evil.example/logo.svg'),
      'config.logo_src: must be an http(s) URL or an absolute path',
    ],
    [
      'a relative path',
      (f) => (f.config.favicon_src = 'demo-assets/logo.svg'),
      'config.favicon_src: must be an http(s) URL or an absolute path',
    ],
    [
      'a data: URL as an image',
      (f) => (f.catalogue[0].image_src = 'data:image/svg+xml,<svg/>'),
      'catalogue[0].image_src: must be an http(s) URL or an absolute path',
    ],
    [
      'a language variant that is not a 2-letter code',
      (f) => (f.config_variants['de-AT'] = {}),
      'config_variants["de-AT"]: must be keyed by a 2-letter lower-case language code',
    ],
    [
      'an upper-case language code',
      (f) => (f.return_reason_variants.DE = {}),
      'return_reason_variants.DE: must be keyed by a 2-letter lower-case language code',
    ],
    [
      'a reason label for an unknown reason',
      (f) => (f.return_reason_variants.de.too_big = 'Zu groß'),
      'return_reason_variants.de.too_big: is not the id of a return reason in return_reasons',
    ],
    [
      'portal_id in a language variant',
      (f) => (f.config_variants.de.portal_id = 'x'),
      'config_variants.de.portal_id: is not a field of the shop file format',
    ],
    [
      'a custom item without a title',
      (f) => delete f.orders[1].line_items[0].title,
      'orders[1].line_items[0].title: is required for a custom item',
    ],
    [
      'a fractional quantity',
      (f) => (f.orders[0].line_items[0].quantity = 1.5),
      'orders[0].line_items[0].quantity: must be a whole number from 1',
    ],
    [
      'a line id with a slash',
      (f) => (f.orders[0].line_items[1].id = 'li/2'),
      'orders[0].line_items[1].id: must be an id of letters, digits',
    ],
    [
      'a negative return window',
      (f) => (f.settings.return_window_days = -1),
      'settings.return_window_days: must be a whole number of days',
    ],
    [
      'an empty catalogue variant list',
      (f) => (f.catalogue[1].variants = []),
      'catalogue[1].variants: must have at least 1 entry',
    ],
    [
      'two variants with the same options',
      (f) => (f.catalogue[0].variants[1].options[0].value = 'S'),
      'catalogue[0].variants[1].options: has the same option values as another variant',
    ],
    [
      'variants with different option names',
      (f) => (f.catalogue[0].variants[1].options[0].name = 'Colour'),
      'catalogue[0].variants[1].options: must name the same options',
    ],
    [
      'an order prefix in lower case',
      (f) => (f.config.order_prefix = 'ac'),
      'config.order_prefix: must be 1 to 10 upper-case letters or digits',
    ],
    [
      'orders the prefix makes unreachable',
      (f) => (f.config.order_prefix = 'AC'),
      'orders[0].name: must begin with the order prefix "AC" or "EXC"',
    ],
    [
      'a discount above the order total',
      (f) => (f.orders[0].discount = '100.00'),
      "orders[0].discount: must not be more than the order's line items are worth",
    ],
    [
      'an over-long text',
      (f) => (f.config.need_help_message = 'x'.repeat(LIMITS.text + 1)),
      `config.need_help_message: must be at most ${LIMITS.text} characters`,
    ],
    ['an empty product title', (f) => (f.catalogue[0].title = ''), 'catalogue[0].title: must not be empty'],
    [
      'a country code in lower case',
      (f) => (f.return_address.country_code = 'de'),
      'return_address.country_code: must be an ISO 3166 country code like "DE"',
    ],
    [
      'a reserved id',
      (f) => {
        f.return_reasons[1].id = 'constructor'
      },
      'return_reasons[1].id: "constructor" is a reserved name',
    ],
    // PostgreSQL stores neither: the import would fail midway with an error naming no field.
    [
      'a text with U+0000',
      (f) => (f.return_address.line1 = 'Hafen\u0000straße'),
      'return_address.line1: must not contain the character U+0000',
    ],
    [
      'a text with an unpaired surrogate',
      (f) => (f.config_variants.de.start_return_message = 'R\ud800'),
      'config_variants.de.start_return_message: must not contain an unpaired surrogate',
    ],
  ])('rejects %s', (_, mutate, expected) => {
    const file = minimal() as Mutable
    mutate(file)
    expect(errorsOf(file)).toContainEqual(expect.stringMatching(new RegExp(`^${escape(expected)}`)))
  })

  it("checks a relative date as resolved at the now it is given: the import's", () => {
    const file = minimal() as Mutable
    // 20 000 days: 1971-03-31 from 2026-01-01, but 1965-03-30 from 2020-01-01.
    file.orders[1].processed_at = 'now-20000d'
    expect(validateShopFile(file, new Date('2026-01-01T00:00:00Z'))).toMatchObject({ ok: true })
    expect(validateShopFile(file, new Date('2020-01-01T00:00:00Z'))).toEqual({
      ok: false,
      errors: ['orders[1].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)'],
    })
  })

  it('reports several shape errors at once', () => {
    const file = minimal() as Mutable
    file.config.button_color = 12
    file.orders[0].line_items[0].price = 25
    delete file.return_address.city
    file.catalogue[0].colour = 'white'
    expect(errorsOf(file)).toEqual(
      expect.arrayContaining([
        'config.button_color: must be a string',
        'orders[0].line_items[0].price: must be a decimal amount like "25.00"',
        'return_address.city: is required',
        'catalogue[0].colour: is not a field of the shop file format (check the spelling)',
      ]),
    )
  })

  it('reports several semantic errors at once', () => {
    const file = minimal() as Mutable
    file.shop = 'Not A Label'
    file.currency_code = 'ABC'
    file.orders[0].line_items[0].variant_id = 'missing'
    file.orders[1].name = '1001'
    file.config.logo_src = 'ftp://example.com/logo.svg'
    const errors = errorsOf(file)
    expect(errors).toHaveLength(5)
    expect(errors.map((e) => e.split(':')[0])).toEqual([
      'shop',
      'currency_code',
      'config.logo_src',
      'orders[0].line_items[0].variant_id',
      'orders[1].name',
    ])
  })

  it('caps the number of errors reported', () => {
    const file = minimal() as Mutable
    file.orders = Array.from({ length: 500 }, (_, i) => ({ ...file.orders[0], name: `#${i}`, email: 'not an e-mail' }))
    const errors = errorsOf(file)
    expect(errors).toHaveLength(LIMITS.errors + 1)
    expect(errors[LIMITS.errors]).toBe(`… and ${500 - LIMITS.errors} more errors`)
  })

  it('caps the number of orders and of line items per order', () => {
    const tooManyLines = minimal() as Mutable
    const line = tooManyLines.orders[0].line_items[1]
    tooManyLines.orders[0].line_items = Array.from({ length: LIMITS.lineItemsPerOrder + 1 }, (_, i) => ({
      ...line,
      id: `li-${i}`,
    }))
    expect(errorsOf(tooManyLines)).toContain(
      `orders[0].line_items: must have at most ${LIMITS.lineItemsPerOrder} entries`,
    )

    const tooManyOrders = minimal() as Mutable
    tooManyOrders.orders = Array.from({ length: LIMITS.orders + 1 }, (_, i) => ({
      ...tooManyOrders.orders[1],
      name: `#${i}`,
    }))
    expect(errorsOf(tooManyOrders)).toContain(`orders: must have at most ${LIMITS.orders} entries`)

    const absurd = minimal() as Mutable
    absurd.orders = new Array(LIMITS.orders * 2 + 1).fill(null)
    expect(errorsOf(absurd)).toEqual([
      `orders: must have at most ${LIMITS.orders} entries (the file has ${LIMITS.orders * 2 + 1})`,
    ])
  })
})

describe('validateShopFile: hostile and odd input', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'not null'],
    ['an array', [minimal()], 'not an array'],
    ['a string', 'demo', 'not string'],
    ['a number', 42, 'not number'],
    ['undefined', undefined, 'not undefined'],
  ])('rejects %s cleanly', (_, input, words) => {
    const errors = errorsOf(input)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^file: must be a JSON object/)
    expect(errors[0]).toContain(words)
  })

  it('rejects an empty object with every missing field', () => {
    expect(errorsOf({})).toEqual(
      ['shop', 'currency_code', 'settings', 'config', 'return_reasons', 'return_address', 'catalogue', 'orders'].map(
        (f) => `${f}: is required`,
      ),
    )
  })

  it.each([
    [
      'top level',
      (json: string) => json.replace('{', '{"__proto__":{"polluted":true},'),
      '__proto__: is not a field of the shop file format',
    ],
    [
      'config',
      (json: string) => json.replace('"portal_id"', '"__proto__":{"polluted":true},"portal_id"'),
      'config.__proto__: is not a field',
    ],
    [
      'config_variants',
      (json: string) => json.replace('"config_variants":{', '"config_variants":{"__proto__":{"button_color":"red"},'),
      'config_variants.__proto__: must be keyed by a 2-letter',
    ],
    [
      'config_variants (constructor)',
      (json: string) => json.replace('"config_variants":{', '"config_variants":{"constructor":{},'),
      'config_variants.constructor: must be keyed by a 2-letter',
    ],
    [
      'return_reason_variants',
      (json: string) => json.replace('"de":{"too_small"', '"de":{"__proto__":"x","constructor":"y","too_small"'),
      'return_reason_variants.de.__proto__: is not the id of a return reason',
    ],
    [
      'settings',
      (json: string) => json.replace('"settings":{', '"settings":{"constructor":{"prototype":{"polluted":true}},'),
      'settings.constructor: is not a field',
    ],
  ])('rejects a __proto__ or constructor key in %s without polluting prototypes', (_, inject, expected) => {
    const json = inject(JSON.stringify(minimal()))
    expect(errorsOf(JSON.parse(json))).toContainEqual(expect.stringMatching(new RegExp(`^${escape(expected)}`)))
    expect(({} as Mutable).polluted).toBeUndefined()
    expect((Object.prototype as Mutable).polluted).toBeUndefined()
  })

  it('does not treat a numeric object key as an array index in paths', () => {
    const file = minimal() as Mutable
    file.config_variants['12'] = { button_color: 5 }
    expect(errorsOf(file)).toContain('config_variants["12"].button_color: must be a string')
  })
})

describe('the demo files', () => {
  const demo = readDemo('demo.json')
  const acme = readDemo('acme.json')
  const order = (file: ShopFile, name: string) => {
    const found = file.orders.find((o) => normaliseOrderName(o.name) === normaliseOrderName(name))
    if (!found) throw new Error(`no order ${name}`)
    return found
  }
  const productOf = (file: ShopFile, variantId: string | null) =>
    file.catalogue.find((p) => p.variants.some((v) => v.id === variantId))

  it('demo: shop settings and configuration as PRODUCT.md §5 says', () => {
    expect(demo).toMatchObject({
      shop: 'demo',
      currency_code: 'EUR',
      settings: { prices_include_tax: true, upsell_enabled: true, return_window_days: 30, return_fee: '3.95' },
      config: { portal_id: 'portal-demo', button_color: '#1f5fbf', gift_card_value_multiplier: 1.1 },
    })
    expect(demo.config.order_prefix).toBeUndefined()
    expect(Object.keys(demo.config_variants ?? {})).toEqual(['de'])
    expect(demo.catalogue.length).toBeGreaterThanOrEqual(12)
    // every text of the base configuration has a German version
    const de = demo.config_variants?.de ?? {}
    for (const [field, value] of Object.entries(demo.config)) {
      if (typeof value === 'string' && /_(text|message)$/.test(field))
        expect({ field, de: de[field as keyof typeof de] }).toEqual({ field, de: expect.any(String) })
    }
    // Every reason and sub-reason has its German label.
    expect(Object.keys(demo.return_reason_variants?.de ?? {}).sort()).toEqual(
      allReasons(demo.return_reasons)
        .map((r) => r.id)
        .sort(),
    )
  })

  it('demo: the orders of PRODUCT.md §5', () => {
    const o1001 = order(demo, '#1001')
    expect(o1001).toMatchObject({ email: 'jane@example.com', fulfilled_at: 'now-5d' })
    const [tee, mug, shirt] = o1001.line_items
    expect(tee).toMatchObject({ variant_id: 'classic-tee-m', quantity: 2, price: '25.00' })
    expect(productOf(demo, 'classic-tee-m')?.variants.map((v) => [v.options[0]?.value, v.available ?? true])).toEqual([
      ['S', true],
      ['M', true],
      ['L', true],
      ['XL', false],
    ])
    expect(mug).toMatchObject({ quantity: 1, price: '14.00' })
    expect(productOf(demo, mug?.variant_id ?? null)).toMatchObject({ title: 'Ceramic Mug', exchangeable: false })
    expect(shirt).toMatchObject({ final_sale: true })
    expect(order(demo, '#1002')).toMatchObject({ email: 'sam@example.com', fulfilled_at: null })
    expect(order(demo, '#1003')).toMatchObject({ email: 'old@example.com', fulfilled_at: 'now-65d' })
    const o1004 = order(demo, '#1004')
    const returned = (o1004.returns ?? []).flat()
    for (const line of o1004.line_items) {
      expect(returned.filter((r) => r.line_item_id === line.id).reduce((n, r) => n + r.quantity, 0)).toBe(line.quantity)
    }
    const o1005 = order(demo, '#1005')
    expect(o1005.line_items).toHaveLength(1)
    expect(productOf(demo, o1005.line_items[0]?.variant_id ?? null)?.variants).toHaveLength(1)
    const o1006 = order(demo, '#1006')
    expect(o1006.line_items).toHaveLength(150)
    expect(o1006.line_items[0]?.id).toBe('li-1006-001')
    const multiVariant = o1006.line_items.filter((l) => {
      const product = productOf(demo, l.variant_id)
      return product && product.exchangeable !== false && product.variants.length > 1 && !l.final_sale
    })
    expect(multiVariant).toHaveLength(50)
  })

  it('demo: some upsell products cost more than a Classic Tee refund plus the bonus, most less', () => {
    const credit = 25 * 1.1
    const prices = demo.catalogue
      .filter((p) => p.upsell !== false)
      .map((p) => Math.min(...p.variants.map((v) => Number(v.price))))
    const above = prices.filter((p) => p > credit).length
    expect(above).toBeGreaterThan(0)
    expect(above).toBeLessThan(prices.length / 2)
  })

  it('acme: as PRODUCT.md §5 says', () => {
    expect(acme).toMatchObject({
      shop: 'acme',
      currency_code: 'USD',
      settings: { prices_include_tax: false, upsell_enabled: false, return_fee: '0.00', return_window_days: 30 },
      config: { portal_id: 'portal-acme', order_prefix: 'AC' },
    })
    expect(acme.config.button_color).toBeUndefined()
    expect(acme.config.gift_card_value_multiplier).toBeUndefined()
    const ac1001 = order(acme, 'AC1001')
    expect(ac1001.email).toBe('ada@example.com')
    expect(ac1001.line_items).toHaveLength(2)
    for (const line of ac1001.line_items) expect(productOf(acme, line.variant_id)?.variants.length).toBeGreaterThan(1)
    const exc = order(acme, 'EXC2001')
    expect(exc.email).toBe('ada@example.com')
    expect(exc.line_items).toHaveLength(1)
    expect(exc.line_items[0]?.exchange_variant_id).toEqual(expect.any(String))
    expect(exc.line_items.every((l) => l.tax_rate === '0.0725')).toBe(true)
  })

  it('uses only the demo asset names that exist', () => {
    const assets = new Set(
      'logo acme-logo background tee-white tee-black tee-blue mug linen-shirt hoodie cap socks tote sneakers beanie scarf water-bottle notebook sunglasses backpack jeans jacket'
        .split(' ')
        .map((n) => `/demo-assets/${n}.svg`),
    )
    for (const json of [
      readFileSync(join(demoDir, 'demo.json'), 'utf8'),
      readFileSync(join(demoDir, 'acme.json'), 'utf8'),
    ]) {
      for (const [src] of json.matchAll(/\/demo-assets\/[^"]*/g)) expect(assets).toContain(src)
    }
  })
})

describe('resolveDate', () => {
  const now = new Date('2026-03-10T12:00:00.000Z')
  it.each([
    ['now', '2026-03-10T12:00:00.000Z'],
    ['now-5d', '2026-03-05T12:00:00.000Z'],
    ['now-12h', '2026-03-10T00:00:00.000Z'],
    ['now+1d', '2026-03-11T12:00:00.000Z'],
    ['now-90m', '2026-03-10T10:30:00.000Z'],
    ['2026-02-01T08:00:00Z', '2026-02-01T08:00:00.000Z'],
    ['2026-02-01T08:00:00+02:00', '2026-02-01T06:00:00.000Z'],
    ['2026-02-01', '2026-02-01T00:00:00.000Z'],
  ])('%s', (value, expected) => {
    expect(resolveDate(value, now).toISOString()).toBe(expected)
  })

  it.each(['now-5w', 'yesterday', 'now - 5d', '2026-02-30', ''])('throws on %j', (value) => {
    expect(() => resolveDate(value, now)).toThrow(/not a date/)
  })

  it('does not change now', () => {
    const before = now.getTime()
    resolveDate('now', now).setTime(0)
    expect(now.getTime()).toBe(before)
  })
})

describe('formatPath and normaliseOrderName', () => {
  it('formats paths like a JavaScript accessor', () => {
    expect(formatPath(['orders', 2, 'line_items', 0, 'price'])).toBe('orders[2].line_items[0].price')
    expect(formatPath(['config_variants', 'de-AT'])).toBe('config_variants["de-AT"]')
    expect(formatPath([])).toBe('file')
  })
  it('normalises order names as verify matches them', () => {
    expect(normaliseOrderName('  #ac1001 ')).toBe('AC1001')
    expect(normaliseOrderName('# 1001')).toBe('1001')
  })
})

describe('validateShopFile: sub-reasons and photos', () => {
  /** The minimal file with "Not as described" and its sub-reasons, one of which asks for a photo. */
  function withTree(): Mutable {
    const file = minimal() as Mutable
    file.return_reasons.push({
      id: 'not_as_described',
      label: 'Not as described',
      comment_required: false,
      children: [
        { id: 'colour', label: 'Colour differs from photos', comment_required: false, photos_required: 1 },
        { id: 'wrong_item', label: 'Wrong item sent', comment_required: true, photos_required: 3 },
      ],
    })
    file.return_reason_variants.de.wrong_item = 'Falscher Artikel geliefert'
    return file
  }

  it('accepts reasons with sub-reasons, photos asked of leaves and labels of sub-reasons per language', () => {
    const result = validateShopFile(withTree())
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it.each<[string, (f: Mutable) => void, string]>([
    [
      'a sub-reason id used by a top reason',
      (f) => (f.return_reasons[2].children[1].id = 'too_small'),
      'return_reasons[2].children[1].id: "too_small" is used by another return reason',
    ],
    [
      'two sub-reasons with one id',
      (f) => (f.return_reasons[2].children[1].id = 'colour'),
      'return_reasons[2].children[1].id: "colour" is used by another return reason',
    ],
    [
      'no photos asked as 0',
      (f) => (f.return_reasons[2].children[0].photos_required = 0),
      'return_reasons[2].children[0].photos_required: must be a whole number of photos from 1 to 3',
    ],
    [
      'more than 3 photos asked',
      (f) => (f.return_reasons[2].children[0].photos_required = 4),
      'return_reasons[2].children[0].photos_required: must be a whole number of photos from 1 to 3',
    ],
    [
      'a parent that asks for photos',
      (f) => (f.return_reasons[2].photos_required = 1),
      'return_reasons[2].photos_required: is only for a reason without sub-reasons',
    ],
    [
      'a parent with a fit marker',
      (f) => (f.return_reasons[2].fit = 'too_small'),
      'return_reasons[2].fit: is only for a reason without sub-reasons',
    ],
    [
      'a parent that asks for a comment',
      (f) => (f.return_reasons[2].comment_required = true),
      'return_reasons[2].comment_required: must be false on a reason with sub-reasons',
    ],
    [
      'an empty list of sub-reasons',
      (f) => (f.return_reasons[2].children = []),
      'return_reasons[2].children: must have at least 1 entry',
    ],
    [
      'a sub-reason without a label',
      (f) => delete f.return_reasons[2].children[0].label,
      'return_reasons[2].children[0].label: is required',
    ],
    [
      'sub-reasons four levels deep',
      (f) =>
        (f.return_reasons[2].children[0].children = [
          {
            id: 'l3',
            label: 'L3',
            comment_required: false,
            children: [{ id: 'l4', label: 'L4', comment_required: false }],
          },
        ]),
      'return_reasons[2].children[0].children[0].children: reasons nest at most 3 levels deep',
    ],
    [
      'a label for an unknown sub-reason',
      (f) => (f.return_reason_variants.de.wrong_colour = 'Falsche Farbe'),
      'return_reason_variants.de.wrong_colour: is not the id of a return reason',
    ],
  ])('rejects %s', (_, mutate, expected) => {
    const file = withTree()
    mutate(file)
    expect(errorsOf(file)).toContainEqual(expect.stringMatching(new RegExp(`^${escape(expected)}`)))
  })

  it('counts sub-reasons in the limit of reasons in all', () => {
    const file = minimal() as Mutable
    file.return_reasons = Array.from({ length: 5 }, (_, p) => ({
      id: `p${p}`,
      label: `Parent ${p}`,
      comment_required: false,
      children: Array.from({ length: 45 }, (_, c) => ({
        id: `p${p}-c${c}`,
        label: `Child ${c}`,
        comment_required: false,
      })),
    }))
    expect(errorsOf(file)).toContainEqual(
      `return_reasons: must have at most ${LIMITS.reasonsInAll} reasons in all, sub-reasons included (the file has 230)`,
    )
  })
})

describe('validateShopFile: fit markers and keep-item returns', () => {
  it('accepts fit markers on reasons and a keep_item_below amount', () => {
    const file = minimal()
    file.return_reasons[0]!.fit = 'too_small'
    file.return_reasons.push({ id: 'too_large', label: 'Too large', comment_required: false, fit: 'too_large' })
    file.settings.keep_item_below = '10.00'
    const result = validateShopFile(file)
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it.each<[string, (f: Mutable) => void, string]>([
    [
      'a fit marker that is not one of the two',
      (f) => (f.return_reasons[0].fit = 'tiny'),
      'return_reasons[0].fit: must be "too_small" or "too_large"',
    ],
    [
      'a fit marker of the wrong type',
      (f) => (f.return_reasons[1].fit = true),
      'return_reasons[1].fit: must be "too_small" or "too_large"',
    ],
    [
      'a threshold as a number',
      (f) => (f.settings.keep_item_below = 10),
      'settings.keep_item_below: must be a decimal amount like "25.00"',
    ],
    [
      'a negative threshold',
      (f) => (f.settings.keep_item_below = '-1.00'),
      'settings.keep_item_below: must be a decimal amount like "25.00"',
    ],
    [
      'a threshold with too many decimals',
      (f) => (f.settings.keep_item_below = '9.999'),
      'settings.keep_item_below: must have at most 2 decimal places in EUR, like "25.00"',
    ],
    [
      'a misspelt threshold',
      (f) => (f.settings.keep_items_below = '10.00'),
      'settings.keep_items_below: is not a field of the shop file format',
    ],
  ])('rejects %s, naming the field', (_, mutate, message) => {
    const file = minimal() as Mutable
    mutate(file)
    expect(errorsOf(file)).toEqual([expect.stringContaining(message)])
  })
})
