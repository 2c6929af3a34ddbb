import { readableTextOn } from './contrast'

describe('readableTextOn: the text colour of a merchant’s button', () => {
  test.each([
    ['black (the default)', '#000000', '#ffffff'],
    ['the demo blue', '#1f5fbf', '#ffffff'],
    ['a pale yellow, unreadable with white', '#ffeb3b', '#111111'],
    ['white', 'white', '#111111'],
    ['a light grey in rgb()', 'rgb(230, 230, 230)', '#111111'],
    ['a mid green', '#0a7d38', '#ffffff'],
    ['not a colour: white text on the default black button', 'not-a-colour', '#ffffff'],
  ])('%s (%s) → %s', (_name, background, expected) => {
    expect(readableTextOn(background)).toBe(expected)
  })
})
