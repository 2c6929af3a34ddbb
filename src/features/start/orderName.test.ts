import { VerifyRequest } from '../../../contract/api'
import { ORDER_NAME_MAX, rewriteOrderName } from './orderName'

describe('rewriteOrderName with prefix AC', () => {
  test.each([
    ['empty stays empty', '', ''],
    ['the prefix typed', 'AC1001', 'AC1001'],
    ['lower case is forced upper', 'ac1001', 'AC1001'],
    ['a beginning of the prefix is kept while typing', 'A', 'A'],
    ['digits alone get the prefix', '1001', 'AC1001'],
    ['a half prefix is completed', 'A1001', 'AC1001'],
    ['a wrong letter keeps the remainder', 'X1', 'ACX1'],
    ['the EXC alternative is kept', 'exc2001', 'EXC2001'],
    ['a beginning of EXC is kept', 'e', 'E'],
    ['EX is kept', 'ex', 'EX'],
    ['a leading # is dropped', '#1001', 'AC1001'],
    ['a leading # before the prefix is dropped', '#ac1001', 'AC1001'],
    ['leading spaces are dropped', '  1001', 'AC1001'],
    ['a deviation after E', 'E9', 'ACE9'],
  ])('%s: %j → %j', (_name, input, expected) => {
    expect(rewriteOrderName(input, 'AC')).toBe(expected)
  })

  test('typing EXC2001 key by key keeps every keystroke', () => {
    let value = ''
    for (const key of 'EXC2001') value = rewriteOrderName(value + key, 'AC')
    expect(value).toBe('EXC2001')
  })

  test.each(['#AC1001', '#ac1001', '#1001', '#EXC2001', '1001', 'ac1001'])(
    'typing %j key by key gives what pasting it gives',
    (typed) => {
      let value = ''
      for (const key of typed) value = rewriteOrderName(value + key, 'AC')
      expect(value).toBe(rewriteOrderName(typed, 'AC'))
    },
  )

  test('a lone # (or #A) is kept while typing: it is the start of #AC…', () => {
    expect(rewriteOrderName('#', 'AC')).toBe('#')
    expect(rewriteOrderName('#a', 'AC')).toBe('#A')
    expect(rewriteOrderName('#E', 'AC')).toBe('#E')
    expect(rewriteOrderName('#1', 'AC')).toBe('AC1')
    expect(rewriteOrderName(' ##', 'AC')).toBe('#')
    expect(rewriteOrderName(' ', 'AC')).toBe('AC')
  })

  test('typing 1001 key by key into an empty field gives AC1001', () => {
    let value = ''
    for (const key of '1001') value = rewriteOrderName(value + key, 'AC')
    expect(value).toBe('AC1001')
  })

  test('deleting key by key from AC1001 empties the field', () => {
    let value = 'AC1001'
    while (value !== '') {
      const shorter = value.slice(0, -1)
      value = rewriteOrderName(shorter, 'AC')
      expect(value).toBe(shorter)
    }
  })

  test.each(['', '1', 'AC', 'ac-7', '#x', 'ß', 'E', 'EXC', 'é1', '\u0000A', '𝒜𝒞', ' ', '###', 'A'.repeat(5000)])(
    'is idempotent for %j',
    (input) => {
      const once = rewriteOrderName(input, 'AC')
      expect(rewriteOrderName(once, 'AC')).toBe(once)
      expect(
        once === '' ||
          once.startsWith('AC') ||
          'AC'.startsWith(once) ||
          once.startsWith('EXC') ||
          'EXC'.startsWith(once) ||
          // '#A': the start of '#AC1001', typed key by key
          (once.startsWith('#') && ('AC'.startsWith(once.slice(1)) || 'EXC'.startsWith(once.slice(1)))),
      ).toBe(true)
    },
  )
})

describe('rewriteOrderName without a prefix', () => {
  test.each([
    [null, '#1001'],
    [undefined, 'abc'],
    ['', 'x1'],
    ['   ', 'lower'],
  ])('prefix %j leaves %j as typed', (prefix, input) => {
    expect(rewriteOrderName(input, prefix)).toBe(input)
  })

  test('a lower-case prefix in the configuration counts as upper case', () => {
    expect(rewriteOrderName('5', 'ac')).toBe('AC5')
  })
})

test('ORDER_NAME_MAX is the API’s limit of an order name', () => {
  expect(ORDER_NAME_MAX).toBe(VerifyRequest.properties.order_name.maxLength)
})
