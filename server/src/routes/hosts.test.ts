import { originOf, servedHost } from './hosts'

const LOCAL = 'http://{shop}.localhost:{PORT}'
const LIVE = 'https://{shop}.returns.example.com'

test.each([
  ['the shipped pattern, a port given', LOCAL, 'demo', 8080, 'http://demo.localhost:8080'],
  ['a live pattern with no port', LIVE, 'acme', 8080, 'https://acme.returns.example.com'],
  ['a fixed port', 'http://{shop}.localhost:9000', 'north', 8080, 'http://north.localhost:9000'],
])('originOf: %s', (_name, pattern, shop, port, expected) => {
  expect(originOf(pattern, shop, port)).toBe(expected)
})

test.each([
  ['a shop of the shipped pattern', LOCAL, 'demo.localhost', true],
  ['in capitals, with the trailing dot', LOCAL, 'Demo.LocalHost.', true],
  ['an IPv4 address (tests, benchmarks, probes)', LOCAL, '127.0.0.1', true],
  ['an IPv6 address', LOCAL, '[::1]', true],
  ['localhost itself', LOCAL, 'localhost', true],
  ['another site', LOCAL, 'evil.attacker.example', false],
  ['a host that only ends like the pattern', LOCAL, 'evil.attacker.example.localhost', false],
  ['no shop label', LOCAL, '.localhost', false],
  ['a label the portal would not read as a shop', LOCAL, '-x.localhost', false],
  ['no host at all', LOCAL, '', false],
  ['a shop of a live pattern', LIVE, 'acme.returns.example.com', true],
  ['the live domain without a shop', LIVE, 'returns.example.com', false],
  ['a look-alike domain', LIVE, 'acme.evilreturns.example.com', false],
  ['the local pattern not configured', LIVE, 'demo.localhost', false],
])('servedHost: %s', (_name, pattern, hostname, expected) => {
  expect(servedHost(pattern, hostname)).toBe(expected)
})
