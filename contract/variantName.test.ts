import { optionsName, sizeKind } from './variantName'

const upper = (name: string) => name.toUpperCase()

test.each([
  [[{ name: 'Size', value: '43' }], 'SIZE 43'],
  [
    [
      { name: 'Colour', value: 'Blue' },
      { name: 'Size', value: 'M' },
    ],
    'COLOUR Blue, SIZE M',
  ],
  [[{ name: 'Size', value: 'One size' }], 'One size'],
  [[{ name: 'Größe', value: 'Einheitsgröße' }], 'Einheitsgröße'],
  [[{ name: 'Title', value: 'Default Title' }], null],
  [[{ name: 'Size', value: '  ' }], null],
  [[], null],
  [undefined, null],
])('%j is named %j', (options, expected) => {
  expect(optionsName(options, upper)).toBe(expected)
})

test.each([
  ['Size', 'size'],
  [' größe ', 'size'],
  ['Waist', 'waist'],
  ['Colour', null],
])('%j is a %j', (name, kind) => {
  expect(sizeKind(name)).toBe(kind)
})
