import { devToolsOptions, maskEmail, maskEmails } from './devTools'

describe('maskEmail', () => {
  test.each([
    ['jane@example.com', 'j***@example.com'],
    ['Contact: Jane.Doe+x@mail.example.org, thanks', 'Contact: J***@mail.example.org, thanks'],
    ['no address here', 'no address here'],
    ['a@b.c and z@y.x', 'a***@b.c and z***@y.x'],
  ])('%s → %s', (input, expected) => {
    expect(maskEmail(input)).toBe(expected)
  })
})

test('maskEmails masks strings at any depth and keeps the shape, without touching the original', () => {
  const action = { type: 'portalApi/executeMutation/pending', meta: { arg: { originalArgs: { order_name: '#1001', email: 'jane@example.com' } } }, list: ['x@y.z', 3] }
  const masked = maskEmails(action)
  expect(masked).toEqual({ type: 'portalApi/executeMutation/pending', meta: { arg: { originalArgs: { order_name: '#1001', email: 'j***@example.com' } } }, list: ['x***@y.z', 3] })
  expect(action.meta.arg.originalArgs.email).toBe('jane@example.com')
})

describe('devToolsOptions', () => {
  const memory = () => {
    const data = new Map<string, string>()
    return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value), removeItem: (key: string) => void data.delete(key) }
  }

  test('development: on, with traces', () => {
    expect(devToolsOptions(false, '', null)).toMatchObject({ trace: true })
  })

  test('production: off unless ?devtools=1, then on for the session with e-mails masked, off again with ?devtools=0', () => {
    const storage = memory()
    expect(devToolsOptions(true, '', storage)).toBe(false)
    const on = devToolsOptions(true, '?devtools=1', storage)
    expect(on).toMatchObject({ trace: false })
    expect(devToolsOptions(true, '', storage)).not.toBe(false)
    const sanitise = (on as { stateSanitizer: (state: unknown, index: number) => unknown }).stateSanitizer
    expect(sanitise({ form: { email: 'jane@example.com' } }, 0)).toEqual({ form: { email: 'j***@example.com' } })
    expect(devToolsOptions(true, '?devtools=0', storage)).toBe(false)
    expect(devToolsOptions(true, '', storage)).toBe(false)
  })
})
