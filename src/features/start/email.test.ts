import { canStartReturn, isValidEmail } from './email'

test.each([
  ['jane@example.com', true],
  ['  jane@example.com  ', true],
  ['first.last+tag@sub.example.co.uk', true],
  ['JANE@EXAMPLE.COM', true],
  ['jane@example', false],
  ['jane@', false],
  ['@example.com', false],
  ['jane example@example.com', false],
  ['jane@exa mple.com', false],
  ['jane@@example.com', false],
  ['', false],
  ['E-mail', false],
  ['<script>@x.com', false],
  [`${'a'.repeat(250)}@example.com`, false],
  ['jane@-example.com', false],
])('isValidEmail(%j) is %s', (email, valid) => {
  expect(isValidEmail(email)).toBe(valid)
})

test.each([
  ['#1001', 'jane@example.com', false, true],
  ['', 'jane@example.com', false, false],
  ['   ', 'jane@example.com', false, false],
  ['#1001', 'jane@', false, false],
  ['#1001', 'jane@example.com', true, false],
])('canStartReturn(%j, %j, verifying %s) is %s', (name, email, verifying, expected) => {
  expect(canStartReturn(name, email, verifying, null)).toBe(expected)
})

test.each([
  ['AC1001', true],
  ['EXC2001', true],
  ['AC', true],
  // Beginnings kept while typing are not order names yet: the button waits for the rest.
  ['A', false],
  ['E', false],
  ['EX', false],
])('with prefix AC, canStartReturn(%j) is %s', (name, expected) => {
  expect(canStartReturn(name, 'ada@example.com', false, 'AC')).toBe(expected)
})
