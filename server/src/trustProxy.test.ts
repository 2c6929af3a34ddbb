import { trustProxyFrom } from './trustProxy'

describe('TRUST_PROXY', () => {
  test.each([undefined, '', '  ', '0', 'false'])('%j trusts no proxy', (value) => {
    expect(trustProxyFrom(value)).toBe(false)
  })

  test('addresses, ranges and proxy-addr’s names are the proxies trusted', () => {
    expect(trustProxyFrom('10.0.0.0/8, 192.168.1.5,loopback, fd00::/8, ::1')).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      'loopback',
      'fd00::/8',
      '::1',
    ])
  })

  test.each(['1', 'true'])('%j (every proxy) is refused with what to give instead', (value) => {
    expect(() => trustProxyFrom(value)).toThrow(
      `TRUST_PROXY: "${value}" is refused: trusting any proxy lets every client choose its own address (X-Forwarded-For); name the load balancer instead. Give the proxies' addresses or ranges, e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=loopback`,
    )
  })

  test('a hop count is refused: it cannot tell a proxy from a client', () => {
    expect(() => trustProxyFrom('2')).toThrow(
      'TRUST_PROXY: "2" is refused: a number of proxies cannot tell a proxy from a client that writes X-Forwarded-For itself',
    )
  })

  test.each(['10.0.0.0/33', '10.0.0.300', 'lb.internal', '10.0.0.0/8/1', '::1/129', '10.0.0.1,'])(
    '%j is refused as not an address or a range',
    (value) => {
      expect(() => trustProxyFrom(value)).toThrow('is refused: it is not an address or a range')
    },
  )
})
