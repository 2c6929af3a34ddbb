import { colord, extend } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'
import fc from 'fast-check'
import { cssColors, hexColor, needsCssColors, readableTextOn, safeColor } from './color'

extend([a11yPlugin])

// Tests run in order: the CSS colour chunk is loaded in the second part only.
describe('before the CSS colour chunk is loaded (the start bundle alone)', () => {
  test.each([
    ['#1f5fbf', '#1f5fbf'],
    ['#ABC', '#aabbcc'],
    ['#abcd', '#aabbccdd'],
    ['#1F5FBF80', '#1f5fbf80'],
    ['  #1f5fbf ', '#1f5fbf'],
    ['#12345', null],
    ['#1234567', null],
    ['#ggg', null],
    ['black', null],
    ['rgb(31, 95, 191)', null],
  ])('safeColor(%j) is %j', (value, expected) => {
    expect(cssColors.settled()).toBe(false)
    expect(safeColor(value)).toBe(expected)
  })

  test.each([
    ['#1f5fbf', false],
    ['black', true],
    ['rgb(0 0 0)', true],
    [undefined, false],
    [12, false],
  ])('needsCssColors(%j) is %j', (value, expected) => {
    expect(needsCssColors(value)).toBe(expected)
  })
})

describe('with the CSS colour chunk', () => {
  beforeAll(() => cssColors.load())

  test.each([
    ['#1f5fbf', '#1f5fbf'],
    ['#ABC', '#aabbcc'],
    ['black', '#000000'],
    ['RebeccaPurple', '#663399'],
    ['rgb(31, 95, 191)', '#1f5fbf'],
    ['hsl(0, 100%, 50%)', '#ff0000'],
    ['red; background: url(x)', null],
    ['expression(alert(1))', null],
    ['url(https://evil.example)', null],
    ['', null],
    ['#12345', null],
    ['var(--x)', null],
    [`#${'f'.repeat(70)}`, null],
  ])('safeColor(%j) is %j', (value, expected) => {
    expect(cssColors.settled()).toBe(true)
    expect(safeColor(value)).toBe(expected)
  })
})

describe('readableTextOn: the text colour of a merchant’s button', () => {
  test.each([
    ['black (the default)', '#000000', '#ffffff'],
    ['the demo blue', '#1f5fbf', '#ffffff'],
    ['a pale yellow, unreadable with white', '#ffeb3b', '#111111'],
    ['white', '#ffffff', '#111111'],
    ['a light grey', '#e6e6e6', '#111111'],
    ['a mid green', '#0a7d38', '#ffffff'],
    ['a colour with alpha: its colour decides', '#ffeb3b80', '#111111'],
    ['not a colour: white text on the default black button', 'not-a-colour', '#ffffff'],
  ])('%s (%s) → %s', (_name, background, expected) => {
    expect(readableTextOn(background)).toBe(expected)
  })

  test('picks the text colour with the higher WCAG contrast, as colord measures it, for any colour', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (rgb) => {
        const hex = `#${rgb.toString(16).padStart(6, '0')}`
        const background = colord(hex)
        const [white, dark] = [background.contrast('#ffffff'), background.contrast('#111111')]
        const chosen = readableTextOn(hex)
        // colord rounds ratios to two decimals: where they tie there, either choice is right.
        if (Math.abs(white - dark) > 0.01) expect(chosen).toBe(white > dark ? '#ffffff' : '#111111')
        else expect(['#ffffff', '#111111']).toContain(chosen)
        expect(hexColor(hex)).toBe(hex)
      }),
      { numRuns: 5000 },
    )
  })
})
