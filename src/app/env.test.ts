import { readEnv } from './env'

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}))
afterEach(() => jest.restoreAllMocks())

test('reads hosts and trims trailing slashes', () => {
  expect(
    readEnv({
      configUrl: 'https://config.example.com/',
      apiUrl: 'https://api.example.com/v1/',
      defaultSubdomain: 'Acme',
    }),
  ).toEqual({
    configUrl: 'https://config.example.com',
    apiUrl: 'https://api.example.com/v1',
    defaultSubdomain: 'acme',
  })
})

test.each([
  ['missing', undefined],
  ['not an object', 'x' as never],
  ['hostile values', { configUrl: 'javascript:alert(1)', apiUrl: 42, defaultSubdomain: '../x' }],
])('falls back to same-origin defaults when %s', (_name, source) => {
  expect(readEnv(source)).toEqual({ configUrl: '', apiUrl: '', defaultSubdomain: 'demo' })
})
