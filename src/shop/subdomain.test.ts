import { configId, parseLang, subdomainFromHost } from './subdomain'

test.each([
  ['acme.returns.example.com', 'acme'],
  ['acme.localhost', 'acme'],
  ['demo.localhost', 'demo'],
  ['ACME.Localhost', 'acme'],
  ['a.b.acme.localhost', 'a'],
  ['returns.example.com', 'returns'],
  ['example.com', 'fallback'],
  ['localhost', 'fallback'],
  ['127.0.0.1', 'fallback'],
  ['[::1]', 'fallback'],
  ['::1', 'fallback'],
  ['', 'fallback'],
  ['acme.localhost.', 'acme'],
  ['-bad.returns.example.com', 'fallback'],
  ['xn--bcher-kva.example.com', 'xn--bcher-kva'],
])('subdomainFromHost(%j) is %j', (host, expected) => {
  expect(subdomainFromHost(host, 'fallback')).toBe(expected)
})

test.each([
  ['de', 'de'],
  ['DE', 'DE'],
  ['pt-BR', 'pt-BR'],
  ['de_DE', 'de-DE'],
  [' fr ', 'fr'],
  ['', null],
  ['d', null],
  ['de/../../x', null],
  ['<script>', null],
  ['english', null],
  [null, null],
])('parseLang(%j) is %j', (value, expected) => {
  expect(parseLang(value)).toBe(expected)
})

test('configId adds the language variant', () => {
  expect(configId('demo', 'de')).toBe('demo-de')
  expect(configId('demo', null)).toBe('demo')
})
