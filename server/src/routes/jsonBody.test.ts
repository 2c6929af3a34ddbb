import { bodyPath, parseJsonBody } from './jsonBody'
import { stringMatching } from '../../test/matchers'

test.each([
  ['an object', '{"items":[{"quantity":1}]}', { items: [{ quantity: 1 }] }],
  ['any JSON value: the route schema judges its shape', '[1, "two", null]', [1, 'two', null]],
  ['a pair of surrogates (an emoji)', '{"comment":"\\ud83d\\ude00"}', { comment: '😀' }],
  ['"constructor" without "prototype" under it', '{"constructor":"x"}', { constructor: 'x' }],
  ['an emoji written as it is, without escapes', '{"comment":"😀"}', { comment: '😀' }],
])('parseJsonBody accepts %s', (_name, text, value) => {
  expect(parseJsonBody(text)).toEqual({ ok: true, value })
})

test.each([
  ['an empty body', '  ', 'body: is empty; send a JSON object'],
  ['a syntax error', '{"order_name":', 'body: is not valid JSON ('],
  ['"__proto__" at the top', '{"__proto__":{"admin":true}}', '__proto__: is not an allowed field name'],
  [
    '"__proto__" deep inside',
    '{"items":[{"x":{"__proto__":1}}]}',
    'items[0].x.__proto__: is not an allowed field name',
  ],
  [
    'constructor.prototype',
    '{"a":{"constructor":{"prototype":{}}}}',
    'a.constructor.prototype: is not an allowed field name',
  ],
  [
    'U+0000 in a value',
    '{"items":[{"comment":"a\\u0000b"}]}',
    'items[0].comment: must not contain the character U+0000',
  ],
  [
    'U+0000 in a field name',
    '{"items":[{"a\\u0000":1}]}',
    'items[0]["a\\u0000"]: the field name must not contain the character U+0000',
  ],
  ['a lone high surrogate', '{"email":"\\ud800@x.y"}', 'email: must not contain an unpaired surrogate'],
  ['a lone low surrogate at the end', '["ok","\\udc00"]', '[1]: must not contain an unpaired surrogate'],
  // Text without a backslash skips the walks unless it may need them: these are as sent, unescaped.
  ['a lone surrogate written as it is', '{"email":"\ud800@x.y"}', 'email: must not contain an unpaired surrogate'],
  [
    '"__proto__" without escapes, deep inside',
    '[{"a":{"__proto__":{}}}]',
    '[0].a.__proto__: is not an allowed field name',
  ],
])('parseJsonBody refuses %s, naming the field', (_name, text, message) => {
  const parsed = parseJsonBody(text)
  expect(parsed.ok).toBe(false)
  expect(parsed.ok ? '' : parsed.message).toContain(message)
})

test('a body nested 30,000 levels deep is checked without overflowing the stack, in linear time', () => {
  const depth = 30_000
  const started = performance.now()
  expect(parseJsonBody(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`)).toEqual({
    ok: false,
    message: stringMatching(/^\[0\]\[0\].*: must not contain/),
  })
  expect(performance.now() - started).toBeLessThan(2_000)
})

test.each([
  [[], 'body'],
  [['items', 0, 'quantity'], 'items[0].quantity'],
  [['config_variants', 'de-AT'], 'config_variants["de-AT"]'],
  [['x'.repeat(100)], `["${'x'.repeat(64)}…"]`],
])('bodyPath(%j) is %s', (segments, path) => {
  expect(bodyPath(segments)).toBe(path)
})
