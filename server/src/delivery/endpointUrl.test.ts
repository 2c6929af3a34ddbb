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
  ])('%s (private networks allowed: %s)', async (url, allowPrivateNetworks, expected) => {
    expect(await endpointUrlProblem(url, allowPrivateNetworks)).toBe(expected)
  })
})
