import fc from 'fast-check'
import { restoreReturnFlow } from '../features/returnFlow/restore'
import type { ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import { buildFlow1001AtConfirm } from '../testing/order1001'
import { deflateRaw, toBase64Url } from './bytes'
import { decodeSupportCode, encodeSupportCode, type DecodedSupportCode } from './supportCode'
import { isCompleteFlow } from './supportShape'

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('')

/** What every decode must give: an error the UI knows, or a state the screens can trust. */
function expectSafe(decoded: DecodedSupportCode) {
  if (!decoded.ok) {
    expect(['malformed', 'unsupported_version', 'foreign_shop', 'too_large']).toContain(decoded.error)
    return
  }
  expect(isCompleteFlow(decoded.flow)).toBe(true)
  // A fixed point of the sessionStorage gate: reloading the replayed tab keeps the same state.
  expect(restoreReturnFlow(decoded.flow)).toEqual(decoded.flow)
  expect(decoded.flow.idempotencyKey).toBeNull()
}

test('any string at all decodes to an error and never throws', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 500 }),
        fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 2_000 }).map((body) => `RB1.${body}`),
        fc
          .string({ unit: fc.constantFrom(...BASE64URL, ' ', '\n', '.', '='), maxLength: 500 })
          .map((body) => `RB${body}`),
      ),
      async (code) => {
        const decoded = await decodeSupportCode(code, 'demo')
        expect(decoded.ok).toBe(false)
        expectSafe(decoded)
      },
    ),
    { numRuns: 300 },
  )
})

test('a real code with one character changed is refused or still gives a trustworthy state', async () => {
  const code = await encodeSupportCode({
    shop: 'demo',
    path: '/confirm',
    flow: buildFlow1001AtConfirm(),
    token: 'read-only.token',
  })
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 4, max: code.length - 1 }),
      fc.constantFrom(...BASE64URL),
      async (index, letter) => {
        expectSafe(await decodeSupportCode(code.slice(0, index) + letter + code.slice(index + 1), 'demo'))
      },
    ),
    { numRuns: 200 },
  )
})

/** Every place in a value where another value could be put: [parent, key] pairs. */
function slots(value: unknown, found: [Record<string, unknown>, string][] = []): [Record<string, unknown>, string][] {
  if (typeof value !== 'object' || value === null) return found
  for (const key of Object.keys(value)) {
    found.push([value as Record<string, unknown>, key])
    slots((value as Record<string, unknown>)[key], found)
  }
  return found
}

const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    undefined,
    '__proto__',
    'javascript:alert(1)',
    '<img src=x onerror=alert(1)>',
    -1,
    1.5,
    1e308,
    'rain-jacket-m',
    'li-1001-003',
    '',
    {},
    [],
  ),
)

test('a well-compressed code whose #1001 state has any one field replaced by anything decodes safely', async () => {
  const count = slots(buildFlow1001AtConfirm()).length
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: count - 1 }), hostileValue, async (index, replacement) => {
      const flow: ReturnFlowState = buildFlow1001AtConfirm()
      const [parent, key] = slots(flow)[index]!
      parent[key] = replacement
      const code = `RB1.${toBase64Url(await deflateRaw(new TextEncoder().encode(JSON.stringify({ v: 1, shop: 'demo', path: '/confirm', flow }))))}`
      expectSafe(await decodeSupportCode(code, 'demo'))
    }),
    { numRuns: 300 },
  )
})
