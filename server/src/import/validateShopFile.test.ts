import { LIMITS, formatPath, normaliseOrderName, resolveDate, validateShopFile } from './validateShopFile'
import type { ShopFile } from './shopFile'
import { stringContaining, stringMatching } from '../../test/matchers'

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

type Segment = string | number
type Node = Record<Segment, unknown>

const parentOf = (file: object, path: Segment[]) =>
  path.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, file as Node)
/** Sets the field at `path` to `value`, whatever the format says of it: how a case breaks a file. */
function set(file: object, path: Segment[], value: unknown): void {
  parentOf(file, path)[path.at(-1)!] = value
}
/** Removes the field at `path`. */
function drop(file: object, path: Segment[]): void {
  delete parentOf(file, path)[path.at(-1)!]
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function errorsOf(input: unknown): string[] {
  const result = validateShopFile(input)
  if (result.ok) throw new Error('expected the file to be rejected')
  return result.errors
}

describe('validateShopFile: valid files', () => {
  it('accepts the minimal file and returns it typed', () => {
    const file = minimal()
    const result = validateShopFile(file)
    expect(result).toEqual({ ok: true, file })
  })

  it.each<[string, (f: ShopFile) => void]>([
    ['a CSS colour name', (f) => set(f, ['config', 'button_color'], 'rebeccapurple')],
    ['an rgb() colour', (f) => set(f, ['config', 'button_color'], 'rgb(31 95 191)')],
    [
      'no button colour and a null multiplier',
      (f) => {
        drop(f, ['config', 'button_color'])
        set(f, ['config', 'gift_card_value_multiplier'], null)
      },
    ],
    ['an http URL', (f) => set(f, ['config', 'logo_src'], 'http://cdn.example.com/logo.png')],
    ['an ISO timestamp with an offset', (f) => set(f, ['orders', 0, 'processed_at'], '2026-02-28T23:30:00.123+01:00')],
    [
      'relative dates in hours and minutes',
      (f) => {
        set(f, ['orders', 0, 'processed_at'], 'now-12h')
        set(f, ['orders', 0, 'fulfilled_at'], 'now+30m')
      },
    ],
    [
      'the first and the last instant of the dates accepted',
      (f) => {
        set(f, ['orders', 0, 'processed_at'], '1970-01-01T00:00:00Z')
        set(f, ['orders', 0, 'fulfilled_at'], '9999-12-31T23:59:59.999Z')
      },
    ],
    [
      'the last day of the dates accepted, by an offset that keeps it in 9999 in UTC',
      (f) => set(f, ['orders', 0, 'fulfilled_at'], '9999-12-31T23:30:00+01:00'),
    ],
    ['order names that differ only by more than "#" and case', (f) => set(f, ['orders', 1, 'name'], '1001-B')],
    ['a whole-number amount', (f) => set(f, ['orders', 0, 'line_items', 0, 'price'], '25')],
    [
      'a 3-digit amount in a currency with 3 minor digits',
      (f) => {
        set(f, ['currency_code'], 'BHD')
        set(f, ['settings', 'return_fee'], '0.500')
      },
    ],
    ['an order discount', (f) => set(f, ['orders', 0, 'discount'], '10.00')],
    ['an exchange order line', (f) => set(f, ['orders', 0, 'line_items', 0, 'exchange_variant_id'], 'tee-s')],
    [
      'an order prefix matched by the order names',
      (f) => {
        set(f, ['config', 'order_prefix'], 'AC')
        set(f, ['orders', 0, 'name'], 'AC1001')
        set(f, ['orders', 1, 'name'], 'exc2001')
      },
    ],
  ])('accepts %s', (_, mutate) => {
    const file = minimal()
    mutate(file)
    const result = validateShopFile(file)
    expect(result.ok ? [] : result.errors).toEqual([])
  })
})

describe('validateShopFile: invalid files name the bad field', () => {
  it.each<[string, (f: ShopFile) => void, string]>([
    [
      'an amount as a number',
      (f) => set(f, ['orders', 0, 'line_items', 0, 'price'], 25),
      'orders[0].line_items[0].price: must be a decimal amount like "25.00"',
    ],
    [
      'an amount with a comma',
      (f) => set(f, ['orders', 0, 'line_items', 0, 'price'], '25,00'),
      'orders[0].line_items[0].price: must be a decimal amount like "25.00"',
    ],
    [
      'too many decimals for the currency',
      (f) => set(f, ['catalogue', 0, 'variants', 1, 'price'], '25.001'),
      'catalogue[0].variants[1].price: must have at most 2 decimal places in EUR, like "25.00"',
    ],
    [
      'decimals in a currency without minor units',
      (f) => {
        set(f, ['currency_code'], 'JPY')
        set(f, ['settings', 'return_fee'], '0')
      },
      'catalogue[0].variants[0].price: must be a whole amount in JPY, like "25"',
    ],
    [
      'a button colour of the wrong type',
      (f) => set(f, ['config', 'button_color'], 12),
      'config.button_color: must be a string',
    ],
    [
      'a button colour that is no CSS colour',
      (f) => set(f, ['config', 'button_color'], 'blurple'),
      'config.button_color: must be a CSS colour',
    ],
    [
      'a CSS injection in the colour',
      (f) => set(f, ['config', 'button_color'], 'red; background: url(x)'),
      'config.button_color: must be a CSS colour',
    ],
    [
      'a colour in a language variant',
      (f) => set(f, ['config_variants', 'de', 'button_color'], 'nope'),
      'config_variants.de.button_color: must be a CSS colour',
    ],
    [
      'a typo in a field name',
      (f) => {
        set(f, ['config', 'buton_color'], f.config.button_color)
        drop(f, ['config', 'button_color'])
      },
      'config.buton_color: is not a field of the shop file format',
    ],
    [
      'shop inside config',
      (f) => set(f, ['config', 'shop'], 'test-shop'),
      'config.shop: is not a field of the shop file format (check the spelling) (the shop is taken from the top-level "shop")',
    ],
    ['a missing required field', (f) => drop(f, ['orders', 1, 'email']), 'orders[1].email: is required'],
    ['a missing portal id', (f) => drop(f, ['config', 'portal_id']), 'config.portal_id: is required'],
    [
      'an invalid e-mail',
      (f) => set(f, ['orders', 0, 'email'], 'jane at example.com'),
      'orders[0].email: must be an e-mail address',
    ],
    ['a shop id with upper case', (f) => set(f, ['shop'], 'Acme'), 'shop: must be a lower-case DNS label'],
    ['a shop id with a leading dash', (f) => set(f, ['shop'], '-acme'), 'shop: must be a lower-case DNS label'],
    [
      'a shop id too long for a DNS label',
      (f) => set(f, ['shop'], 'a'.repeat(64)),
      'shop: must be at most 63 characters',
    ],
    [
      'a shop id that looks like a language variant',
      (f) => set(f, ['shop'], 'acme-de'),
      'shop: must not end in "-" and two letters',
    ],
    [
      'an unknown currency',
      (f) => set(f, ['currency_code'], 'XYZ'),
      'currency_code: "XYZ" is not an ISO 4217 currency code',
    ],
    [
      'a lower-case currency',
      (f) => set(f, ['currency_code'], 'eur'),
      'currency_code: must be an ISO 4217 currency code like "EUR"',
    ],
    [
      'a tax rate of 1',
      (f) => set(f, ['orders', 0, 'line_items', 1, 'tax_rate'], '1'),
      'orders[0].line_items[1].tax_rate: must be a decimal rate from 0 up to (not including) 1',
    ],
    [
      'a tax rate as a percentage',
      (f) => set(f, ['orders', 0, 'line_items', 1, 'tax_rate'], '19'),
      'orders[0].line_items[1].tax_rate: must be a decimal rate',
    ],
    [
      'a multiplier below 1',
      (f) => set(f, ['config', 'gift_card_value_multiplier'], 0.9),
      'config.gift_card_value_multiplier: must be null or a number from 1 to 10',
    ],
    [
      'a multiplier above 10',
      (f) => set(f, ['config', 'gift_card_value_multiplier'], 11),
      'config.gift_card_value_multiplier: must be null or a number from 1 to 10',
    ],
    [
      'a date in no known format',
      (f) => set(f, ['orders', 0, 'processed_at'], '07/03/2026'),
      'orders[0].processed_at: must be an ISO 8601 date',
    ],
    [
      'an impossible calendar date',
      (f) => set(f, ['orders', 0, 'processed_at'], '2026-02-30T10:00:00Z'),
      'orders[0].processed_at: must be an ISO 8601 date',
    ],
    [
      'a relative date in weeks',
      (f) => set(f, ['orders', 0, 'processed_at'], 'now-2w'),
      'orders[0].processed_at: must be an ISO 8601 date',
    ],
    [
      'fulfilment before the order',
      (f) => {
        set(f, ['orders', 0, 'processed_at'], 'now-1d')
        set(f, ['orders', 0, 'fulfilled_at'], 'now-2d')
      },
      'orders[0].fulfilled_at: must not be before processed_at',
    ],
    // Dates JavaScript reads but PostgreSQL refuses or stores as another day: refused by name, before any write.
    [
      'a date in the year 0000',
      (f) => set(f, ['orders', 0, 'processed_at'], '0000-06-01T00:00:00Z'),
      'orders[0].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a date in the year 0001',
      (f) => set(f, ['orders', 1, 'processed_at'], '0001-01-01'),
      'orders[1].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a date just before 1970',
      (f) => set(f, ['orders', 0, 'fulfilled_at'], '1969-12-31T23:59:59.999Z'),
      'orders[0].fulfilled_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      '1970-01-01 by an offset that makes it 1969 in UTC',
      (f) => set(f, ['orders', 0, 'processed_at'], '1970-01-01T00:30:00+01:00'),
      'orders[0].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      '9999-12-31 by an offset that makes it the year 10000 in UTC',
      (f) => set(f, ['orders', 0, 'fulfilled_at'], '9999-12-31T23:00:00-05:00'),
      'orders[0].fulfilled_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a relative date before 1970',
      (f) => set(f, ['orders', 0, 'processed_at'], 'now-999999d'),
      'orders[0].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a tracked return created in the year 0000',
      (f) =>
        set(
          f,
          ['orders', 0, 'tracked_returns'],
          [{ created_at: '0000-03-02', items: [{ line_item_id: 'li-2', quantity: 1, reason_id: 'too_small' }] }],
        ),
      'orders[0].tracked_returns[0].created_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a tracked return refunded in the year 10000',
      (f) =>
        set(
          f,
          ['orders', 0, 'tracked_returns'],
          [
            {
              created_at: 'now',
              items: [{ line_item_id: 'li-2', quantity: 1, reason_id: 'too_small' }],
              progress: { refunded: '9999-12-31T23:59:59-00:01' },
            },
          ],
        ),
      'orders[0].tracked_returns[0].progress.refunded: must be a date from 1970-01-01 to 9999-12-31 (UTC)',
    ],
    [
      'a duplicate product id',
      (f) => set(f, ['catalogue', 1, 'id'], 'tee'),
      'catalogue[1].id: "tee" is used by another product',
    ],
    [
      'a duplicate variant id across products',
      (f) => set(f, ['catalogue', 1, 'variants', 0, 'id'], 'tee-s'),
      'catalogue[1].variants[0].id: "tee-s" is used by another variant of the catalogue',
    ],
    [
      'order names equal after normalisation',
      (f) => set(f, ['orders', 1, 'name'], ' 1001 '),
      'orders[1].name: " 1001 " is the same order name as another order',
    ],
    [
      'a duplicate line item id',
      (f) => set(f, ['orders', 0, 'line_items', 1, 'id'], 'li-1'),
      'orders[0].line_items[1].id: "li-1" is used by another line item of this order',
    ],
    [
      'a duplicate return reason id',
      (f) => set(f, ['return_reasons', 1, 'id'], 'too_small'),
      'return_reasons[1].id: "too_small" is used by another return reason',
    ],
    [
      'an unknown variant',
      (f) => set(f, ['orders', 0, 'line_items', 0, 'variant_id'], 'tee-xxl'),
      'orders[0].line_items[0].variant_id: "tee-xxl" is not a variant id of the catalogue',
    ],
    [
      'an unknown exchange variant',
      (f) => set(f, ['orders', 0, 'line_items', 0, 'exchange_variant_id'], 'gone'),
      'orders[0].line_items[0].exchange_variant_id: "gone" is not a variant id of the catalogue',
    ],
    [
      'a return of an unknown line',
      (f) => set(f, ['orders', 0, 'returns', 0, 0, 'line_item_id'], 'li-9'),
      'orders[0].returns[0][0].line_item_id: "li-9" is not a line item id of this order',
    ],
    [
      'a return of zero units',
      (f) => set(f, ['orders', 0, 'returns', 0, 0, 'quantity'], 0),
      'orders[0].returns[0][0].quantity: must be a whole number from 1',
    ],
    [
      'more units returned than bought',
      (f) => f.orders[0]!.returns!.push([{ line_item_id: 'li-1', quantity: 2 }]),
      'orders[0].returns[1][0].quantity: returns 3 units of line item "li-1" in all, but only 2 were bought',
    ],
    ['an empty return', (f) => f.orders[0]!.returns!.push([]), 'orders[0].returns[1]: must have at least 1 entry'],
    [
      'a javascript: URL',
      (f) => set(f, ['config', 'website_url'], 'javascript:alert(1)'),
      'config.website_url: must be an http(s) URL or an absolute path',
    ],
    [
      'a protocol-relative URL',
      (f) => set(f, ['config', 'logo_src'], '//evil.example/logo.svg'),
      'config.logo_src: must be an http(s) URL or an absolute path',
    ],
    [
      'a relative path',
      (f) => set(f, ['config', 'favicon_src'], 'demo-assets/logo.svg'),
      'config.favicon_src: must be an http(s) URL or an absolute path',
    ],
    [
      'a data: URL as an image',
      (f) => set(f, ['catalogue', 0, 'image_src'], 'data:image/svg+xml,<svg/>'),
      'catalogue[0].image_src: must be an http(s) URL or an absolute path',
    ],
    [
      'a language variant that is not a 2-letter code',
      (f) => set(f, ['config_variants', 'de-AT'], {}),
      'config_variants["de-AT"]: must be keyed by a 2-letter lower-case language code',
    ],
    [
      'an upper-case language code',
      (f) => set(f, ['return_reason_variants', 'DE'], {}),
      'return_reason_variants.DE: must be keyed by a 2-letter lower-case language code',
    ],
    [
      'a reason label for an unknown reason',
      (f) => set(f, ['return_reason_variants', 'de', 'too_big'], 'Zu groß'),
      'return_reason_variants.de.too_big: is not the id of a return reason in return_reasons',
    ],
    [
      'portal_id in a language variant',
      (f) => set(f, ['config_variants', 'de', 'portal_id'], 'x'),
      'config_variants.de.portal_id: is not a field of the shop file format',
    ],
    [
      'a custom item without a title',
      (f) => drop(f, ['orders', 1, 'line_items', 0, 'title']),
      'orders[1].line_items[0].title: is required for a custom item',
    ],
    [
      'a fractional quantity',
      (f) => set(f, ['orders', 0, 'line_items', 0, 'quantity'], 1.5),
      'orders[0].line_items[0].quantity: must be a whole number from 1',
    ],
    [
      'a line id with a slash',
      (f) => set(f, ['orders', 0, 'line_items', 1, 'id'], 'li/2'),
      'orders[0].line_items[1].id: must be an id of letters, digits',
    ],
    [
      'a negative return window',
      (f) => set(f, ['settings', 'return_window_days'], -1),
      'settings.return_window_days: must be a whole number of days',
    ],
    [
      'an empty catalogue variant list',
      (f) => set(f, ['catalogue', 1, 'variants'], []),
      'catalogue[1].variants: must have at least 1 entry',
    ],
    [
      'two variants with the same options',
      (f) => set(f, ['catalogue', 0, 'variants', 1, 'options', 0, 'value'], 'S'),
      'catalogue[0].variants[1].options: has the same option values as another variant',
    ],
    [
      'variants with different option names',
      (f) => set(f, ['catalogue', 0, 'variants', 1, 'options', 0, 'name'], 'Colour'),
      'catalogue[0].variants[1].options: must name the same options',
    ],
    [
      'an order prefix in lower case',
      (f) => set(f, ['config', 'order_prefix'], 'ac'),
      'config.order_prefix: must be 1 to 10 upper-case letters or digits',
    ],
    [
      'orders the prefix makes unreachable',
      (f) => set(f, ['config', 'order_prefix'], 'AC'),
      'orders[0].name: must begin with the order prefix "AC" or "EXC"',
    ],
    [
      'a discount above the order total',
      (f) => set(f, ['orders', 0, 'discount'], '100.00'),
      "orders[0].discount: must not be more than the order's line items are worth",
    ],
    [
      'an over-long text',
      (f) => set(f, ['config', 'need_help_message'], 'x'.repeat(LIMITS.text + 1)),
      `config.need_help_message: must be at most ${LIMITS.text} characters`,
    ],
    ['an empty product title', (f) => set(f, ['catalogue', 0, 'title'], ''), 'catalogue[0].title: must not be empty'],
    [
      'a country code in lower case',
      (f) => set(f, ['return_address', 'country_code'], 'de'),
      'return_address.country_code: must be an ISO 3166 country code like "DE"',
    ],
    [
      'a shipping address without a postal code',
      (f) =>
        set(f, ['orders', 0, 'shipping_address'], {
          name: 'Jane Doe',
          line1: 'Lindenstraße 5',
          city: 'Berlin',
          country_code: 'DE',
        }),
      'orders[0].shipping_address.postal_code: is required',
    ],
    [
      'a shipping address with a country in lower case',
      (f) =>
        set(f, ['orders', 0, 'shipping_address'], {
          name: 'Jane Doe',
          line1: 'Lindenstraße 5',
          city: 'Berlin',
          postal_code: '10969',
          country_code: 'de',
        }),
      'orders[0].shipping_address.country_code: must be an ISO 3166 country code like "DE"',
    ],
    [
      'a reserved id',
      (f) => {
        set(f, ['return_reasons', 1, 'id'], 'constructor')
      },
      'return_reasons[1].id: "constructor" is a reserved name',
    ],
    // PostgreSQL stores neither: the import would fail midway with an error naming no field.
    [
      'a text with U+0000',
      (f) => set(f, ['return_address', 'line1'], 'Hafen\u0000straße'),
      'return_address.line1: must not contain the character U+0000',
    ],
    [
      'a text with an unpaired surrogate',
      (f) => set(f, ['config_variants', 'de', 'start_return_message'], 'R\ud800'),
      'config_variants.de.start_return_message: must not contain an unpaired surrogate',
    ],
  ])('rejects %s', (_, mutate, expected) => {
    const file = minimal()
    mutate(file)
    expect(errorsOf(file)).toContainEqual(stringMatching(new RegExp(`^${escape(expected)}`)))
  })

  it("checks a relative date as resolved at the now it is given: the import's", () => {
    const file = minimal()
    // 20 000 days: 1971-03-31 from 2026-01-01, but 1965-03-30 from 2020-01-01.
    set(file, ['orders', 1, 'processed_at'], 'now-20000d')
    expect(validateShopFile(file, new Date('2026-01-01T00:00:00Z'))).toMatchObject({ ok: true })
    expect(validateShopFile(file, new Date('2020-01-01T00:00:00Z'))).toEqual({
      ok: false,
      errors: ['orders[1].processed_at: must be a date from 1970-01-01 to 9999-12-31 (UTC)'],
    })
  })

  it('reports several shape errors at once', () => {
    const file = minimal()
    set(file, ['config', 'button_color'], 12)
    set(file, ['orders', 0, 'line_items', 0, 'price'], 25)
    drop(file, ['return_address', 'city'])
    set(file, ['catalogue', 0, 'colour'], 'white')
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
    const file = minimal()
    set(file, ['shop'], 'Not A Label')
    set(file, ['currency_code'], 'ABC')
    set(file, ['orders', 0, 'line_items', 0, 'variant_id'], 'missing')
    set(file, ['orders', 1, 'name'], '1001')
    set(file, ['config', 'logo_src'], 'ftp://example.com/logo.svg')
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
    const file = minimal()
    set(
      file,
      ['orders'],
      Array.from({ length: 500 }, (_, i) => ({ ...file.orders[0], name: `#${i}`, email: 'not an e-mail' })),
    )
    const errors = errorsOf(file)
    expect(errors).toHaveLength(LIMITS.errors + 1)
    expect(errors[LIMITS.errors]).toBe(`… and ${500 - LIMITS.errors} more errors`)
  })

  it('caps the number of orders and of line items per order', () => {
    const tooManyLines = minimal()
    const line = tooManyLines.orders[0]!.line_items[1]
    set(
      tooManyLines,
      ['orders', 0, 'line_items'],
      Array.from({ length: LIMITS.lineItemsPerOrder + 1 }, (_, i) => ({
        ...line,
        id: `li-${i}`,
      })),
    )
    expect(errorsOf(tooManyLines)).toContain(
      `orders[0].line_items: must have at most ${LIMITS.lineItemsPerOrder} entries`,
    )

    const tooManyOrders = minimal()
    set(
      tooManyOrders,
      ['orders'],
      Array.from({ length: LIMITS.orders + 1 }, (_, i) => ({
        ...tooManyOrders.orders[1],
        name: `#${i}`,
      })),
    )
    expect(errorsOf(tooManyOrders)).toContain(`orders: must have at most ${LIMITS.orders} entries`)

    const absurd = minimal()
    set(absurd, ['orders'], new Array(LIMITS.orders * 2 + 1).fill(null))
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
    expect(errorsOf(JSON.parse(json))).toContainEqual(stringMatching(new RegExp(`^${escape(expected)}`)))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('does not treat a numeric object key as an array index in paths', () => {
    const file = minimal()
    set(file, ['config_variants', '12'], { button_color: 5 })
    expect(errorsOf(file)).toContain('config_variants["12"].button_color: must be a string')
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
  function withTree(): ShopFile {
    const file = minimal()
    file.return_reasons.push({
      id: 'not_as_described',
      label: 'Not as described',
      comment_required: false,
      children: [
        { id: 'colour', label: 'Colour differs from photos', comment_required: false, photos_required: 1 },
        { id: 'wrong_item', label: 'Wrong item sent', comment_required: true, photos_required: 3 },
      ],
    })
    set(file, ['return_reason_variants', 'de', 'wrong_item'], 'Falscher Artikel geliefert')
    return file
  }

  it('accepts reasons with sub-reasons, photos asked of leaves and labels of sub-reasons per language', () => {
    const result = validateShopFile(withTree())
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it.each<[string, (f: ShopFile) => void, string]>([
    [
      'a sub-reason id used by a top reason',
      (f) => set(f, ['return_reasons', 2, 'children', 1, 'id'], 'too_small'),
      'return_reasons[2].children[1].id: "too_small" is used by another return reason',
    ],
    [
      'two sub-reasons with one id',
      (f) => set(f, ['return_reasons', 2, 'children', 1, 'id'], 'colour'),
      'return_reasons[2].children[1].id: "colour" is used by another return reason',
    ],
    [
      'no photos asked as 0',
      (f) => set(f, ['return_reasons', 2, 'children', 0, 'photos_required'], 0),
      'return_reasons[2].children[0].photos_required: must be a whole number of photos from 1 to 3',
    ],
    [
      'more than 3 photos asked',
      (f) => set(f, ['return_reasons', 2, 'children', 0, 'photos_required'], 4),
      'return_reasons[2].children[0].photos_required: must be a whole number of photos from 1 to 3',
    ],
    [
      'a parent that asks for photos',
      (f) => set(f, ['return_reasons', 2, 'photos_required'], 1),
      'return_reasons[2].photos_required: is only for a reason without sub-reasons',
    ],
    [
      'a parent with a fit marker',
      (f) => set(f, ['return_reasons', 2, 'fit'], 'too_small'),
      'return_reasons[2].fit: is only for a reason without sub-reasons',
    ],
    [
      'a parent that asks for a comment',
      (f) => set(f, ['return_reasons', 2, 'comment_required'], true),
      'return_reasons[2].comment_required: must be false on a reason with sub-reasons',
    ],
    [
      'an empty list of sub-reasons',
      (f) => set(f, ['return_reasons', 2, 'children'], []),
      'return_reasons[2].children: must have at least 1 entry',
    ],
    [
      'a sub-reason without a label',
      (f) => drop(f, ['return_reasons', 2, 'children', 0, 'label']),
      'return_reasons[2].children[0].label: is required',
    ],
    [
      'sub-reasons four levels deep',
      (f) =>
        set(
          f,
          ['return_reasons', 2, 'children', 0, 'children'],
          [
            {
              id: 'l3',
              label: 'L3',
              comment_required: false,
              children: [{ id: 'l4', label: 'L4', comment_required: false }],
            },
          ],
        ),
      'return_reasons[2].children[0].children[0].children: reasons nest at most 3 levels deep',
    ],
    [
      'a label for an unknown sub-reason',
      (f) => set(f, ['return_reason_variants', 'de', 'wrong_colour'], 'Falsche Farbe'),
      'return_reason_variants.de.wrong_colour: is not the id of a return reason',
    ],
  ])('rejects %s', (_, mutate, expected) => {
    const file = withTree()
    mutate(file)
    expect(errorsOf(file)).toContainEqual(stringMatching(new RegExp(`^${escape(expected)}`)))
  })

  it('counts sub-reasons in the limit of reasons in all', () => {
    const file = minimal()
    set(
      file,
      ['return_reasons'],
      Array.from({ length: 5 }, (_, p) => ({
        id: `p${p}`,
        label: `Parent ${p}`,
        comment_required: false,
        children: Array.from({ length: 45 }, (_, c) => ({
          id: `p${p}-c${c}`,
          label: `Child ${c}`,
          comment_required: false,
        })),
      })),
    )
    expect(errorsOf(file)).toContainEqual(
      `return_reasons: must have at most ${LIMITS.reasonsInAll} reasons in all, sub-reasons included (the file has 230)`,
    )
  })
})

describe('validateShopFile: fit markers and keep-item returns', () => {
  it('accepts fit markers on reasons and a keep_item_below amount', () => {
    const file = minimal()
    set(file, ['return_reasons', 0, 'fit'], 'too_small')
    file.return_reasons.push({ id: 'too_large', label: 'Too large', comment_required: false, fit: 'too_large' })
    set(file, ['settings', 'keep_item_below'], '10.00')
    const result = validateShopFile(file)
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it.each<[string, (f: ShopFile) => void, string]>([
    [
      'a fit marker that is not one of the two',
      (f) => set(f, ['return_reasons', 0, 'fit'], 'tiny'),
      'return_reasons[0].fit: must be "too_small" or "too_large"',
    ],
    [
      'a fit marker of the wrong type',
      (f) => set(f, ['return_reasons', 1, 'fit'], true),
      'return_reasons[1].fit: must be "too_small" or "too_large"',
    ],
    [
      'a threshold as a number',
      (f) => set(f, ['settings', 'keep_item_below'], 10),
      'settings.keep_item_below: must be a decimal amount like "25.00"',
    ],
    [
      'a negative threshold',
      (f) => set(f, ['settings', 'keep_item_below'], '-1.00'),
      'settings.keep_item_below: must be a decimal amount like "25.00"',
    ],
    [
      'a threshold with too many decimals',
      (f) => set(f, ['settings', 'keep_item_below'], '9.999'),
      'settings.keep_item_below: must have at most 2 decimal places in EUR, like "25.00"',
    ],
    [
      'a misspelt threshold',
      (f) => set(f, ['settings', 'keep_items_below'], '10.00'),
      'settings.keep_items_below: is not a field of the shop file format',
    ],
  ])('rejects %s, naming the field', (_, mutate, message) => {
    const file = minimal()
    mutate(file)
    expect(errorsOf(file)).toEqual([stringContaining(message)])
  })
})

describe('validateShopFile: refund timing and tracked returns', () => {
  /**
   * The minimal file with refund timing per method and a third order, #1007, with a return made
   * before the import: the tee exchanged for S and the mug refunded, in transit two days ago.
   */
  function withTracking(): ShopFile {
    const file = minimal()
    set(file, ['settings', 'refund_timing'], {
      original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' },
      store_credit: { from_days: 0, to_days: 0, business_days: true, after: 'submit' },
    })
    file.orders.push({
      name: '#1007',
      email: 'track@example.com',
      processed_at: 'now-9d',
      fulfilled_at: 'now-7d',
      line_items: [
        { id: 'li-tee', variant_id: 'tee-m', quantity: 1, price: '25.00', tax_rate: '0.19' },
        { id: 'li-mug', variant_id: 'mug-default', quantity: 1, price: '14.00', tax_rate: '0.19' },
      ],
      tracked_returns: [
        {
          created_at: 'now-3d',
          refund_method: 'original_payment',
          items: [
            { line_item_id: 'li-tee', quantity: 1, reason_id: 'too_small', exchange_variant_id: 'tee-s' },
            { line_item_id: 'li-mug', quantity: 1, reason_id: 'too_small' },
          ],
          progress: { in_transit: 'now-2d' },
        },
      ],
    })
    return file
  }
  const tracked = (f: ShopFile) => f.orders[2]!.tracked_returns![0]!
  const AT = 'orders[2].tracked_returns[0]'

  it('accepts refund timing and a tracked return', () => {
    const result = validateShopFile(withTracking())
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it('refund timing is optional: a shop without it is valid', () => {
    const file = withTracking()
    drop(file, ['settings', 'refund_timing'])
    expect(validateShopFile(file).ok).toBe(true)
  })

  it.each<[string, (timing: object) => void, string]>([
    [
      'an unknown method',
      (t) => set(t, ['cash'], { from_days: 0, to_days: 0, business_days: true, after: 'submit' }),
      'settings.refund_timing.cash: is not a field of the shop file format',
    ],
    [
      'to_days before from_days',
      (t) => set(t, ['original_payment', 'to_days'], 4),
      'settings.refund_timing.original_payment.to_days: must not be less than from_days',
    ],
    [
      'negative days',
      (t) => set(t, ['store_credit', 'from_days'], -1),
      'settings.refund_timing.store_credit.from_days: must be a whole number of days from 0 to 365',
    ],
    [
      'days that are not whole',
      (t) => set(t, ['store_credit', 'to_days'], 1.5),
      'settings.refund_timing.store_credit.to_days: must be a whole number of days',
    ],
    [
      'days as a string',
      (t) => set(t, ['original_payment', 'from_days'], '5'),
      'settings.refund_timing.original_payment.from_days: must be a whole number of days',
    ],
    [
      'an unknown anchor',
      (t) => set(t, ['original_payment', 'after'], 'shipping'),
      'settings.refund_timing.original_payment.after: must be "submit"',
    ],
    [
      'business_days left out',
      (t) => drop(t, ['store_credit', 'business_days']),
      'settings.refund_timing.store_credit.business_days: is required',
    ],
  ])('rejects refund timing with %s, naming the field', (_name, change, message) => {
    const file = withTracking()
    change(file.settings.refund_timing!)
    expect(errorsOf(file)).toEqual([stringContaining(message)])
  })

  it.each<[string, (f: ShopFile) => void, string]>([
    [
      'an unknown reason',
      (f) => set(tracked(f), ['items', 1, 'reason_id'], 'bored'),
      `${AT}.items[1].reason_id: "bored" is not the id of a return reason`,
    ],
    [
      'a reason that needs a comment, without one',
      (f) => set(tracked(f), ['items', 1, 'reason_id'], 'other'),
      `${AT}.items[1].comment: is required by the reason "other"`,
    ],
    [
      'an unknown exchange variant',
      (f) => set(tracked(f), ['items', 0, 'exchange_variant_id'], 'tee-xxxl'),
      `${AT}.items[0].exchange_variant_id: "tee-xxxl" is not a variant id`,
    ],
    [
      'progress before the return was made',
      (f) => set(tracked(f), ['progress', 'in_transit'], 'now-4d'),
      `${AT}.progress.in_transit: must not be before created_at or an earlier state`,
    ],
    [
      'received before in transit',
      (f) => set(tracked(f), ['progress', 'received'], 'now-3d'),
      `${AT}.progress.received: must not be before created_at or an earlier state`,
    ],
    [
      'an unknown state',
      (f) => set(tracked(f), ['progress', 'lost'], 'now'),
      `${AT}.progress.lost: is not a field of the shop file format`,
    ],
    [
      'requested as progress (it is created_at)',
      (f) => set(tracked(f), ['progress', 'requested'], 'now'),
      `${AT}.progress.requested: is not a field of the shop file format`,
    ],
    [
      'an unknown refund method',
      (f) => set(tracked(f), ['refund_method'], 'cash'),
      `${AT}.refund_method: must be null or one of "original_payment", "store_credit"`,
    ],
    [
      'a line not in the order',
      (f) => set(tracked(f), ['items', 0, 'line_item_id'], 'li-1'),
      `${AT}.items[0].line_item_id: "li-1" is not a line item id of this order`,
    ],
    [
      'more units than bought, with a plain return',
      (f) => set(f, ['orders', 2, 'returns'], [[{ line_item_id: 'li-mug', quantity: 1 }]]),
      `${AT}.items[1].quantity: returns 2 units of line item "li-mug" in all, but only 1 were bought`,
    ],
  ])('rejects a tracked return with %s, naming the field', (_name, change, message) => {
    const file = withTracking()
    change(file)
    expect(errorsOf(file)).toEqual([stringContaining(message)])
  })
})

describe('validateShopFile: product tags and the policy', () => {
  /** The minimal file with tags on its tee and a policy of every part. */
  function withPolicy(): ShopFile {
    const file = minimal()
    file.catalogue[0]!.tags = ['tops', 'sale']
    file.policy = {
      final_sale: [{ tag: 'swimwear', label: 'Swimwear' }],
      windows: [{ tag: 'sale', days: 14, label: 'Sale items' }],
      blocked: { emails: ['abuser@example.com'], order_names: ['#1009'] },
      limit: { returns: 5, days: 30 },
      review: {
        over_amount: '200.00',
        photo_reasons: ['too_small'],
        frequent: { returns: 3, days: 30 },
        answer_within_days: 2,
      },
      deductions: { opened: 10, damaged: 50 },
    }
    return file
  }

  it.each<[string, (f: ShopFile) => void]>([
    ['tags and a policy of every part', () => {}],
    ['an empty policy', (f) => set(f, ['policy'], {})],
    ['no policy at all', (f) => drop(f, ['policy'])],
    ['a tag with spaces inside', (f) => set(f, ['catalogue', 0, 'tags'], ['final sale'])],
    [
      'a whole amount in a currency without minor units',
      (f) => {
        set(f, ['currency_code'], 'JPY')
        set(f, ['settings', 'return_fee'], '0')
        for (const product of f.catalogue) for (const variant of product.variants) variant.price = '2500'
        for (const order of f.orders) for (const line of order.line_items) line.price = '2500'
        set(f, ['policy', 'review', 'over_amount'], '20000')
      },
    ],
  ])('accepts %s', (_, mutate) => {
    const file = withPolicy()
    mutate(file)
    const result = validateShopFile(file)
    expect(result.ok ? [] : result.errors).toEqual([])
  })

  it.each<[string, (f: ShopFile) => void, string]>([
    [
      'a tag with a comma',
      (f) => set(f, ['catalogue', 0, 'tags', 1], 'sale,new'),
      'catalogue[0].tags[1]: must be a tag of 1 to 64 characters, without commas or line breaks',
    ],
    [
      'a tag twice',
      (f) => set(f, ['catalogue', 0, 'tags'], ['sale', 'tops', 'sale']),
      'catalogue[0].tags: must not list an entry twice (entries 0 and 2 are the same)',
    ],
    [
      'more than 50 tags',
      (f) =>
        set(
          f,
          ['catalogue', 0, 'tags'],
          Array.from({ length: 51 }, (_, i) => `tag-${i}`),
        ),
      'catalogue[0].tags: must have at most 50 entries',
    ],
    [
      'an unknown field of the policy',
      (f) => set(f, ['policy', 'windows_days'], 14),
      'policy.windows_days: is not a field of the shop file format',
    ],
    [
      'a window of more than 3650 days',
      (f) => set(f, ['policy', 'windows', 0, 'days'], 3651),
      'policy.windows[0].days: must be a whole number of days from 0 to 3650',
    ],
    [
      'a final-sale rule without a label',
      (f) => drop(f, ['policy', 'final_sale', 0, 'label']),
      'policy.final_sale[0].label: is required',
    ],
    [
      'a review amount with more decimals than the currency has',
      (f) => set(f, ['policy', 'review', 'over_amount'], '200.005'),
      'policy.review.over_amount: must have at most 2 decimal places in EUR, like "25.00"',
    ],
    [
      'a review amount with decimals in a currency without minor units',
      (f) => {
        set(f, ['currency_code'], 'JPY')
        set(f, ['settings', 'return_fee'], '0')
        for (const product of f.catalogue) for (const variant of product.variants) variant.price = '2500'
        for (const order of f.orders) for (const line of order.line_items) line.price = '2500'
      },
      'policy.review.over_amount: must be a whole amount in JPY, like "25"',
    ],
    [
      'a photo reason that is not one of the shop’s',
      (f) => set(f, ['policy', 'review', 'photo_reasons'], ['too_small', 'damaged']),
      'policy.review.photo_reasons[1]: "damaged" is not the id of one of the shop\'s return reasons',
    ],
    [
      'a second window rule for a tag',
      (f) => f.policy!.windows!.push({ tag: 'sale', days: 7, label: 'Sale again' }),
      'policy.windows[1].tag: "sale" has a rule already (windows[0]); only the first applies',
    ],
    [
      'a blocked e-mail that is no e-mail',
      (f) => set(f, ['policy', 'blocked', 'emails', 0], 'abuser at example.com'),
      'policy.blocked.emails[0]: must be an e-mail address like "jane@example.com"',
    ],
    [
      'a blocked order name of only "#" and spaces',
      (f) => set(f, ['policy', 'blocked', 'order_names', 0], '# '),
      'policy.blocked.order_names[0]: must be an order name like "#1001"',
    ],
    [
      'a limit of 0 returns',
      (f) => set(f, ['policy', 'limit', 'returns'], 0),
      'policy.limit.returns: must be at least 1',
    ],
    [
      'an unknown inspection condition',
      (f) => set(f, ['policy', 'deductions', 'broken'], 50),
      'policy.deductions.broken: is not a field of the shop file format',
    ],
    [
      'a deduction over 100 %',
      (f) => set(f, ['policy', 'deductions', 'opened'], 101),
      'policy.deductions.opened: must be at most 100',
    ],
  ])('rejects %s, naming the field', (_name, change, message) => {
    const file = withPolicy()
    change(file)
    expect(errorsOf(file)).toEqual([stringContaining(message)])
  })
})
