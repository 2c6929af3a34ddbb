import { maskEmail, maskEmails } from './maskEmails'

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
  const action = {
    type: 'portalApi/executeMutation/pending',
    meta: { arg: { originalArgs: { order_name: '#1001', email: 'jane@example.com' } } },
    list: ['x@y.z', 3],
  }
  const masked = maskEmails(action)
  expect(masked).toEqual({
    type: 'portalApi/executeMutation/pending',
    meta: { arg: { originalArgs: { order_name: '#1001', email: 'j***@example.com' } } },
    list: ['x***@y.z', 3],
  })
  expect(action.meta.arg.originalArgs.email).toBe('jane@example.com')
})
