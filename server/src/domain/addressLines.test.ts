import { addressLines } from './addressLines'

const base = { name: 'Returns', line1: '1 Road Runner Way', city: 'Phoenix', postal_code: '85001' }

describe('addressLines', () => {
  test.each([
    ['US', { ...base, region: 'AZ', country_code: 'US' }, ['1 Road Runner Way', 'Phoenix, AZ 85001']],
    [
      'DE',
      { ...base, line1: 'Hafenstraße 12', city: 'Hamburg', postal_code: '20457', country_code: 'DE' },
      ['Hafenstraße 12', '20457 Hamburg'],
    ],
    [
      'GB',
      { ...base, line1: '10 Downing Street', city: 'London', postal_code: 'SW1A 2AA', country_code: 'GB' },
      ['10 Downing Street', 'London', 'SW1A 2AA'],
    ],
    [
      'FR',
      { ...base, line1: '5 rue de Rivoli', city: 'Paris', postal_code: '75001', country_code: 'FR' },
      ['5 rue de Rivoli', '75001 Paris'],
    ],
  ])('%s writes its lines its own way', (_, address, lines) => {
    expect(addressLines(address)).toEqual(lines)
  })

  test('a second street line follows the first', () => {
    expect(addressLines({ ...base, line2: 'Dock 7', region: 'AZ', country_code: 'US' })).toEqual([
      '1 Road Runner Way',
      'Dock 7',
      'Phoenix, AZ 85001',
    ])
  })

  test('a country without a template of its own still gives every part', () => {
    const lines = addressLines({ ...base, country_code: 'ZZ' })
    expect(lines.join('\n')).toContain('1 Road Runner Way')
    expect(lines.join('\n')).toContain('Phoenix')
    expect(lines.join('\n')).toContain('85001')
  })
})
