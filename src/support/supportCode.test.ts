import { paths } from '../../contract/paths'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import type { LineItem } from '../../contract/api'
import { buildFlow, buildLineItem, buildQuote, buildSubmittedReturn, buildVariant, money } from '../testing/builders'
import { stringMatching } from '../testing/matchers'
import { buildFlow1001AtConfirm, buildOrder1001 } from '../testing/order1001'
import { deflateRaw, toBase64Url } from './bytes'
import { decodeSupportCode, encodeSupportCode, isFlowPath, MAX_CODE_LENGTH } from './supportCode'

const READ_ONLY =
  'eyJvIjoiNDMyOTNiNmEtYTcxOS00NmE2LWFkOTgtNWZiMzE5MWY5ZjYxIiwicyI6ImRlbW8iLCJlIjoxNzk1MTgzMjAwLCJyIjoxfQ.c2lnbmF0dXJlLW9mLXRoZS1yZWFkLW9ubHktdG9rZW4'

/** What decoding must give for `flow`: the read-only token, no submit key, the e-mail masked. */
function replayed(
  flow: ReturnFlowState,
  maskedComment = 'Handle chipped, photos sent from j***@example.com',
): ReturnFlowState {
  return {
    ...flow,
    order: { ...flow.order!, token: READ_ONLY },
    items: flow.items.map((item) =>
      item.reason?.comment.includes('@') ? { ...item, reason: { ...item.reason, comment: maskedComment } } : item,
    ),
    quote: flow.quote && {
      ...flow.quote,
      items: flow.quote.items.map((item) => (item.comment?.includes('@') ? { ...item, comment: maskedComment } : item)),
    },
    idempotencyKey: null,
  }
}

/** A code around any payload, as a hostile or broken tool could make one: encodeSupportCode would refuse most. */
async function craft(payload: unknown, prefix = 'RB1.'): Promise<string> {
  return (
    prefix +
    toBase64Url(
      await deflateRaw(new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload))),
    )
  )
}

/**
 * A 150-line order like the demo's #1006: products of the catalogue in turn, each line's sizes
 * offered for exchange, every line chosen with a comment, refunded, and quoted.
 */
function build150LineFlow(): ReturnFlowState {
  const products = [
    ['classic-tee', 'Classic Tee', '25.00'],
    ['hoodie', 'Hoodie', '59.00'],
    ['cap', 'Cap', '19.00'],
    ['socks', 'Socks', '9.90'],
    ['sneakers', 'Sneakers', '89.00'],
    ['jeans', 'Jeans', '79.00'],
  ] as const
  const sizes = ['S', 'M', 'L', 'XL']
  const variants = products.flatMap(([id, title, price]) =>
    sizes.map((size) =>
      buildVariant({
        id: `${id}-${size.toLowerCase()}`,
        product_id: id,
        product_title: title,
        title: size,
        options: [{ name: 'Size', value: size }],
        price: money(price),
        image_src: `/demo-assets/${id}.svg`,
      }),
    ),
  )
  const lines = Array.from({ length: 150 }, (_, index) => {
    const [id, title, price] = products[index % products.length]!
    const size = sizes[index % sizes.length]!
    return buildLineItem({
      id: `li-1006-${String(index + 1).padStart(3, '0')}`,
      variant_id: `${id}-${size.toLowerCase()}`,
      product_src: `/demo-assets/${id}.svg`,
      title,
      variant_title: size,
      price: money(price),
    })
  })
  const order = buildOrder1001({
    order_name: '#1006',
    line_items: lines,
    exchange_data: {
      options: Object.fromEntries(
        products.flatMap(([id]) =>
          sizes.map((size) => [`${id}-${size.toLowerCase()}`, sizes.map((other) => `${id}-${other.toLowerCase()}`)]),
        ),
      ),
      upsell_enabled: true,
      variants: Object.fromEntries(variants.map((variant) => [variant.id, variant])),
    },
  })
  const comment = (line: LineItem) => `${line.title} ${line.variant_title}: not what I expected`
  return buildFlow({
    order,
    items: lines.map((line) => ({
      lineItemId: line.id,
      quantity: 1,
      reason: { id: 'other', comment: comment(line) },
      exchange: { kind: 'refund' },
    })),
    upsell: { kind: 'declined' },
    refundMethod: 'original_payment',
    quote: buildQuote('3412.17', {
      refund_method: 'original_payment',
      items: lines.map((line) => ({
        line_item_id: line.id,
        title: line.title,
        variant_title: line.variant_title,
        quantity: 1,
        reason_id: 'other',
        reason_label: 'Other reason',
        comment: comment(line),
        exchange_variant_id: null,
        exchange_variant_title: null,
      })),
    }),
  })
}

const encode1001 = (flow = buildFlow1001AtConfirm(), path = paths.confirm.build()) =>
  encodeSupportCode({ shop: 'demo', path, flow, token: READ_ONLY })

describe('a #1001 session', () => {
  test('at the confirm step round-trips to the same route and choices, read-only token in, e-mail masked, no submit key', async () => {
    const flow = buildFlow1001AtConfirm()
    const code = await encode1001(flow)
    expect(code).toMatch(/^RB1\.[A-Za-z0-9_-]+$/)
    const decoded = await decodeSupportCode(code, 'demo')
    expect(decoded).toEqual({ ok: true, shop: 'demo', path: '/confirm', flow: replayed(flow) })
    expect(JSON.stringify(decoded)).not.toContain('jane@example.com')
    expect(JSON.stringify(decoded)).not.toContain(flow.order!.token)
  })

  test('at the confirm step its code is short enough to paste into any chat (under 2,000 characters)', async () => {
    expect((await encode1001()).length).toBeLessThan(2_000)
  })

  test.each([
    ['products', paths.products.build(), { items: [], quote: null, refundMethod: null, upsell: null }],
    ['a reason', paths.returnReason.build('li-1001-002'), { quote: null, refundMethod: null }],
    ['an exchange', paths.exchange.build('li-1001-001'), { quote: null, refundMethod: null }],
    ['the upsell offer', paths.upsellOffer.build(), { upsell: null, quote: null }],
    [
      'upsell exploration',
      paths.upsellExplore.build(),
      { upsell: { kind: 'accepted', variantId: 'rain-jacket-m' } as const },
    ],
    ['the refund method', paths.refundMethod.build(), { refundMethod: null }],
    ['the instructions', paths.returnInstruction.build(), { submitted: buildSubmittedReturn() }],
  ])('on %s (%s) round-trips to that route and state', async (_name, path, overrides) => {
    const flow = buildFlow1001AtConfirm(overrides)
    expect(await decodeSupportCode(await encode1001(flow, path), 'demo')).toEqual({
      ok: true,
      shop: 'demo',
      path,
      flow: replayed(flow),
    })
  })

  test('pasted back with the line breaks, spaces and zero-width spaces a chat tool adds, it still decodes', async () => {
    const code = await encode1001()
    const wrapped = `  ${code.replace(/(.{60})/g, '$1\r\n').replace(/(.{23})/, '$1\u200B')}\n `
    expect(await decodeSupportCode(wrapped, 'demo')).toMatchObject({ ok: true, path: '/confirm' })
  })
})

describe('codes that are refused', () => {
  test('another shop’s code is foreign', async () => {
    expect(await decodeSupportCode(await encode1001(), 'acme')).toEqual({ ok: false, error: 'foreign_shop' })
  })

  test.each([
    ['nothing', ''],
    ['words', 'please help me with my return'],
    ['the prefix alone', 'RB1.'],
    ['letters outside base64url', 'RB1.eJzz*SKt/Q=='],
    ['a lower-case prefix', 'rb1.AAAA'],
    ['a base64url body that is not deflate', `RB1.${toBase64Url(new TextEncoder().encode('{"v":1}'))}`],
  ])('%s is malformed', async (_name, code) => {
    expect(await decodeSupportCode(code, 'demo')).toEqual({ ok: false, error: 'malformed' })
  })

  test.each<[string, unknown]>([
    ['deflated text that is not JSON', 'not json'],
    ['a JSON array', [1, 'demo', '/confirm']],
    ['no version', { shop: 'demo', path: '/confirm', flow: buildFlow1001AtConfirm() }],
    ['a version as text', { v: '1', shop: 'demo', path: '/confirm', flow: buildFlow1001AtConfirm() }],
    ['no flow', { v: 1, shop: 'demo', path: '/confirm' }],
    [
      'a flow without an order',
      { v: 1, shop: 'demo', path: '/confirm', flow: { ...buildFlow1001AtConfirm(), order: null } },
    ],
    [
      'a line item without its price',
      {
        v: 1,
        shop: 'demo',
        path: '/confirm',
        flow: buildFlow1001AtConfirm({
          order: buildOrder1001({ line_items: [{ ...buildOrder1001().line_items[0]!, price: undefined as never }] }),
        }),
      },
    ],
    [
      'an amount that is not a number',
      {
        v: 1,
        shop: 'demo',
        path: '/confirm',
        flow: buildFlow1001AtConfirm({
          order: buildOrder1001({
            line_items: [
              buildLineItem({
                price: {
                  shop_money: { amount: '1e999', currency_code: 'EUR' },
                  presentment_money: { amount: 'NaN', currency_code: 'EUR' },
                },
              }),
            ],
          }),
        }),
      },
    ],
    [
      'an exchange for a variant the order does not offer',
      {
        v: 1,
        shop: 'demo',
        path: '/confirm',
        flow: buildFlow1001AtConfirm({
          items: [
            {
              lineItemId: 'li-1001-001',
              quantity: 1,
              reason: { id: 'too_small', comment: '' },
              exchange: { kind: 'exchange', variantId: 'rain-jacket-m' },
            },
          ],
        }),
      },
    ],
    [
      'a reason the shop does not have',
      {
        v: 1,
        shop: 'demo',
        path: '/confirm',
        flow: buildFlow1001AtConfirm({
          items: [{ lineItemId: 'li-1001-002', quantity: 1, reason: { id: 'bored', comment: '' }, exchange: null }],
        }),
      },
    ],
    [
      'a quote of another shape',
      {
        v: 1,
        shop: 'demo',
        path: '/confirm',
        flow: { ...buildFlow1001AtConfirm(), quote: { refund_value: {}, breakdown: {}, items: [{}] } },
      },
    ],
  ])('a well-compressed code with %s is malformed', async (_name, payload) => {
    expect(await decodeSupportCode(await craft(payload), 'demo')).toEqual({ ok: false, error: 'malformed' })
  })

  test.each([
    ['cut in half', (code: string) => code.slice(0, Math.floor(code.length / 2))],
    ['missing its last characters', (code: string) => code.slice(0, -6)],
    ['missing one character in the middle', (code: string) => code.slice(0, 200) + code.slice(201)],
  ])('a code %s is refused', async (_name, cut) => {
    const decoded = await decodeSupportCode(cut(await encode1001()), 'demo')
    expect(decoded).toEqual({ ok: false, error: stringMatching(/^(malformed|unsupported_version)$/) })
  })

  test.each([
    ['a prefix of a later version', async () => (await encode1001()).replace(/^RB1\./, 'RB2.')],
    [
      'a payload of a later version',
      () => craft({ v: 2, shop: 'demo', path: '/confirm', flow: buildFlow1001AtConfirm() }),
    ],
    ['a payload of version 0', () => craft({ v: 0, shop: 'demo', path: '/confirm', flow: buildFlow1001AtConfirm() })],
  ])('%s is an unsupported version', async (_name, code) => {
    expect(await decodeSupportCode(await code(), 'demo')).toEqual({ ok: false, error: 'unsupported_version' })
  })

  test.each([
    ['just over the limit', `RB1.${'A'.repeat(MAX_CODE_LENGTH)}`],
    ['ten megabytes', `RB1.${'A'.repeat(10 * 1024 * 1024)}`],
    ['mostly line breaks', `RB1.${'\n'.repeat(3 * MAX_CODE_LENGTH)}`],
  ])('a huge code (%s) is too large', async (_name, code) => {
    expect(await decodeSupportCode(code, 'demo')).toEqual({ ok: false, error: 'too_large' })
  })

  test('a zip bomb (a code under the size limit inflating to 20 MB) is too large', async () => {
    const bomb = await craft(`{"v":1,"shop":"demo","path":"/confirm","flow":{"pad":"${'a'.repeat(20 * 1024 * 1024)}"}}`)
    expect(bomb.length).toBeLessThan(MAX_CODE_LENGTH)
    expect(await decodeSupportCode(bomb, 'demo')).toEqual({ ok: false, error: 'too_large' })
  })

  test.each([
    '/admin',
    'javascript:alert(1)',
    '/',
    'https://evil.example/confirm',
    '//evil.example/products',
    '/products?debug=1',
    '/confirm#top',
    '/Confirm',
    '/confirm/',
    '/return-item/../admin/return-reason',
    '/return-item/a/b/exchange',
    '/return-item//exchange',
    '/return-item/%zz/exchange',
  ])('a path outside the flow (%s) is malformed', async (path) => {
    expect(
      await decodeSupportCode(await craft({ v: 1, shop: 'demo', path, flow: buildFlow1001AtConfirm() }), 'demo'),
    ).toEqual({ ok: false, error: 'malformed' })
  })
})

describe('what a hostile code can change', () => {
  test('a submit key in the code is dropped: a replay never continues the shopper’s submit', async () => {
    const flow = buildFlow1001AtConfirm()
    const decoded = await decodeSupportCode(await craft({ v: 1, shop: 'demo', path: '/confirm', flow }), 'demo')
    expect(decoded).toMatchObject({ ok: true, flow: { idempotencyKey: null, refundMethod: 'store_credit' } })
  })

  test('choices that do not restore are refused, not repaired: support must see the shopper’s session or none', async () => {
    const flow = buildFlow1001AtConfirm({
      items: [{ lineItemId: 'li-1001-003', quantity: 1, reason: null, exchange: null }],
    })
    const decoded = await decodeSupportCode(await craft({ v: 1, shop: 'demo', path: '/products', flow }), 'demo')
    // The final-sale shirt cannot be chosen: sessionStorage would keep only the order; a code is refused.
    expect(decoded).toEqual({ ok: false, error: 'malformed' })
  })
})

test('a refund timing of the contract’s shape rides along; a tampered one never reaches the screens', async () => {
  const timing = { original_payment: { from_days: 5, to_days: 10, business_days: true, after: 'receipt' as const } }
  const flow = buildFlow1001AtConfirm()
  const timed = { ...flow, quote: { ...flow.quote!, refund_timing: timing } }
  const decoded = await decodeSupportCode(await encode1001(timed), 'demo')
  expect(decoded.ok && decoded.flow.quote?.refund_timing).toEqual(timing)
  const tampered = {
    ...flow,
    quote: {
      ...flow.quote!,
      refund_timing: { original_payment: { ...timing.original_payment, after: '<img onerror=alert(1)>' } },
    },
  }
  const refused = await decodeSupportCode(await craft({ v: 1, shop: 'demo', path: '/confirm', flow: tampered }), 'demo')
  expect(refused).toEqual({ ok: false, error: 'malformed' })
})

describe('encodeSupportCode', () => {
  test('refuses a session without an order and a path outside the flow', async () => {
    await expect(
      encodeSupportCode({ shop: 'demo', path: '/products', flow: buildFlow({ order: null }), token: READ_ONLY }),
    ).rejects.toThrow('verified order')
    await expect(encode1001(buildFlow1001AtConfirm(), '/')).rejects.toThrow('Not a route of the return flow')
  })

  test('refuses a session whose code could not be read back (past the size limit)', async () => {
    // Text that does not compress: a comment of 100,000 pseudo-random letters.
    let seed = 7
    const noise = Array.from({ length: 100_000 }, () =>
      String.fromCharCode(33 + ((seed = (seed * 48271) % 2147483647) % 90)),
    ).join('')
    const flow = buildFlow1001AtConfirm({
      items: [{ lineItemId: 'li-1001-002', quantity: 1, reason: { id: 'other', comment: noise }, exchange: null }],
      quote: null,
    })
    await expect(encode1001(flow)).rejects.toThrow(`at most ${MAX_CODE_LENGTH}`)
  })

  test('a 150-line order (like #1006) at the confirm step, every line chosen and commented, stays well under the limit', async () => {
    const flow = build150LineFlow()
    const code = await encodeSupportCode({ shop: 'demo', path: '/confirm', flow, token: READ_ONLY })
    // About 6,000 characters from 117 KB of JSON: the limit leaves room for orders ten times that.
    expect(code.length).toBeLessThan(12_000)
    expect(await decodeSupportCode(code, 'demo')).toEqual({
      ok: true,
      shop: 'demo',
      path: '/confirm',
      flow: replayed(flow),
    })
  })
})

test.each([
  ['/products', true],
  ['/return-item/li-1001-001/return-reason', true],
  ['/return-item/gid%3A%2F%2Fshopify%2FLineItem%2F1/exchange', true],
  ['/return-item/gid://shopify/LineItem/1/exchange', false],
  ['/return-instruction', true],
  ['/return-item/%E2%82%AC/exchange', true],
  ['/return-item/%zz/exchange', false],
  ['/Products', false],
  ['/products/', false],
  ['/', false],
  ['/support', false],
])('isFlowPath(%s) is %s', (path, expected) => {
  expect(isFlowPath(path)).toBe(expected)
})

describe('sub-reasons and photos in a code', () => {
  const photoId = 'Zm9vYmFyYmF6cXV4cXV1eA'
  const withEvidence = (reason: Record<string, unknown>) => {
    const order = buildOrder1001()
    const described = {
      id: 'not_as_described',
      label: 'Not as described',
      comment_required: false,
      children: [{ id: 'wrong_item', label: 'Wrong item sent', comment_required: false, photos_required: 1 }],
    }
    return buildFlow1001AtConfirm({
      order: {
        ...order,
        return_reasons: [...order.return_reasons.filter((candidate) => candidate.id !== 'not_as_described'), described],
      },
      items: [{ lineItemId: 'li-1001-002', quantity: 1, reason: reason as never, exchange: null }],
      quote: null,
    })
  }

  test('a sub-reason and its photo ids round-trip; the code carries the ids, never an image', async () => {
    const flow = withEvidence({ id: 'wrong_item', comment: '', photoIds: [photoId] })
    const code = await encodeSupportCode({ shop: 'demo', path: paths.confirm.build(), flow, token: READ_ONLY })
    const decoded = await decodeSupportCode(code, 'demo')
    expect(decoded).toMatchObject({
      ok: true,
      flow: { items: [{ reason: { id: 'wrong_item', photoIds: [photoId] } }] },
    })
    expect(code.length).toBeLessThan(2_500)
  })

  test.each<[string, Record<string, unknown>]>([
    ['a reason that has sub-reasons', { id: 'not_as_described', comment: '' }],
    [
      'image bytes where a photo id goes',
      { id: 'wrong_item', comment: '', photoIds: ['data:image/png;base64,iVBORw0KGgoAAAANSUhEUg'] },
    ],
    [
      'four photos for one item',
      {
        id: 'wrong_item',
        comment: '',
        photoIds: [photoId, `${photoId.slice(1)}A`, `${photoId.slice(1)}B`, `${photoId.slice(1)}C`],
      },
    ],
  ])('a code with %s is malformed', async (_name, reason) => {
    expect(
      await decodeSupportCode(
        await craft({ v: 1, shop: 'demo', path: '/confirm', flow: withEvidence(reason) }),
        'demo',
      ),
    ).toEqual({ ok: false, error: 'malformed' })
  })
})
