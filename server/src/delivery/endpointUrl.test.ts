import { endpointUrlProblem, isPublicAddress } from './endpointUrl'

describe('isPublicAddress: where a webhook may go', () => {
  test.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['not an address', false],
  ])('%s: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected)
  })

  // Each IPv6 form that carries an IPv4 address is judged by that address (issue 29).
  test.each([
    ['IPv4-compatible, loopback', '::127.0.0.1', false],
    ['IPv4-compatible, loopback, as the URL parser writes it', '::7f00:1', false],
    ['IPv4-compatible, private', '::10.0.0.1', false],
    ['IPv4-compatible, metadata', '::a9fe:a9fe', false],
    ['IPv4-compatible, public', '::8.8.8.8', true],
    ['IPv4-mapped, loopback', '::ffff:127.0.0.1', false],
    ['IPv4-mapped, loopback, hex', '::ffff:7f00:1', false],
    ['IPv4-mapped, private', '::ffff:192.168.1.1', false],
    ['IPv4-mapped, public', '::ffff:8.8.8.8', true],
    ['IPv4-translated, loopback', '::ffff:0:127.0.0.1', false],
    ['IPv4-translated, private, hex', '::ffff:0:a00:1', false],
    ['IPv4-translated, public', '::ffff:0:8.8.8.8', true],
    ['NAT64, loopback', '64:ff9b::127.0.0.1', false],
    ['NAT64, metadata, hex', '64:ff9b::a9fe:a9fe', false],
    ['NAT64, public', '64:ff9b::93.184.216.34', true],
    ['NAT64 local-use, any', '64:ff9b:1::8.8.8.8', false],
    ['NAT64 local-use, loopback', '64:ff9b:1:0:0:0:7f00:1', false],
    ['6to4, loopback', '2002:7f00:1::1', false],
    ['6to4, private', '2002:c0a8:101::1', false],
    ['6to4, public', '2002:808:808::1', true],
    ['Teredo, client 127.0.0.1 (obfuscated)', '2001:0:4136:e378:8000:63bf:80ff:fffe', false],
    ['Teredo, client 10.0.0.1 (obfuscated)', '2001:0:4136:e378:8000:63bf:f5ff:fffe', false],
    ['Teredo, private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7', false],
    ['Teredo, client 8.8.8.8 via a public server', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', true],
    ['documentation prefix', '2001:db8::1', false],
  ])('%s (%s): %s', (_form, address, expected) => {
    expect(isPublicAddress(address)).toBe(expected)
  })
})

describe('endpointUrlProblem', () => {
  test.each([
    ['https://93.184.216.34/hooks', false, null],
    ['http://[2606:2800:220:1:248:1893:25c8:1946]/hooks', false, null],
    ['http://127.0.0.1:8080/hooks', true, null],
    ['not a url', false, 'must be an absolute http(s) address, like "https://oms.example.com/hooks/rebound"'],
    ['gopher://93.184.216.34/', false, 'must start with https:// or http://'],
    ['https://a:b@93.184.216.34/', false, 'must not carry a user name or password'],
    [
      'http://[::1]/hooks',
      false,
      'points to a private, loopback or link-local address (::1); webhooks go to public addresses only',
    ],
    [
      'http://[::127.0.0.1]:9/',
      false,
      'points to a private, loopback or link-local address (::7f00:1); webhooks go to public addresses only',
    ],
    [
      'http://[64:ff9b::169.254.169.254]/latest/meta-data',
      false,
      'points to a private, loopback or link-local address (64:ff9b::a9fe:a9fe); webhooks go to public addresses only',
    ],
  ])('%s (private networks allowed: %s)', async (url, allowPrivateNetworks, expected) => {
    expect(await endpointUrlProblem(url, allowPrivateNetworks)).toBe(expected)
  })
})
