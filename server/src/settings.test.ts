import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readSettings, SETTINGS_SCHEMA, SettingsError } from './settings'

describe('readSettings', () => {
  test('with no settings, the limits docs/settings.md promises', () => {
    expect(readSettings({})).toEqual({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      // Each shop's portal on its .localhost name, at the port the server listens on (docs/settings.md).
      PORTAL_ORIGIN: 'http://{shop}.localhost:{PORT}',
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
      VERIFY_RATE_LIMIT_PER_IP: 30,
      VERIFY_RATE_LIMIT_PER_ORDER: 10,
      VERIFY_FAILURE_FLOOR_MS: 250,
      // Webhooks go to public addresses only, unless told otherwise (docs/events.md).
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
    })
  })

  test('WEBHOOK_ALLOW_PRIVATE_NETWORKS is true only when it says true; SMTP_URL is an smtp(s) address', () => {
    expect(readSettings({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(true)
    expect(readSettings({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }).WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(false)
    expect(readSettings({ SMTP_URL: 'smtps://u:p@mail.example:465' }).SMTP_URL).toBe('smtps://u:p@mail.example:465')
  })

  test('an empty or blank value is unset (never a 0 limit), and values are read trimmed', () => {
    const settings = readSettings({
      VERIFY_RATE_LIMIT_PER_IP: '',
      VERIFY_FAILURE_FLOOR_MS: '  ',
      PORT: ' 9000 ',
      DATABASE_URL: '',
    })
    expect(settings).toMatchObject({ VERIFY_RATE_LIMIT_PER_IP: 30, VERIFY_FAILURE_FLOOR_MS: 250, PORT: 9000 })
    expect(settings).not.toHaveProperty('DATABASE_URL')
  })

  test('PORTAL_ORIGIN takes a live domain, with or without a port', () => {
    for (const origin of ['https://{shop}.returns.example.com', 'http://{shop}.localhost:9000'])
      expect(readSettings({ PORTAL_ORIGIN: origin }).PORTAL_ORIGIN).toBe(origin)
  })

  test('settings given are typed: numbers as numbers, TRUST_PROXY as its list', () => {
    expect(
      readSettings({
        VERIFY_RATE_LIMIT_PER_IP: '5',
        TRUST_PROXY: '10.0.0.0/8, loopback',
        DATABASE_URL: 'postgres://u:p@db/rebound',
      }),
    ).toMatchObject({
      VERIFY_RATE_LIMIT_PER_IP: 5,
      TRUST_PROXY: ['10.0.0.0/8', 'loopback'],
      DATABASE_URL: 'postgres://u:p@db/rebound',
    })
  })

  test.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['VERIFY_RATE_LIMIT_PER_IP', '0'],
    ['VERIFY_RATE_LIMIT_PER_ORDER', '2.5'],
    ['VERIFY_FAILURE_FLOOR_MS', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://db/rebound'],
    ['TRUST_PROXY', 'true'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['SMTP_URL', 'http://mail.example'],
    // A portal address must name the shop as its host's first label, on a name the portal reads it from.
    ['PORTAL_ORIGIN', 'https://returns.example.com'],
    ['PORTAL_ORIGIN', 'https://returns.example.com/{shop}'],
    ['PORTAL_ORIGIN', 'https://{shop}.example'],
    ['PORTAL_ORIGIN', 'https://{shop}.returns.example.com/'],
    ['PORTAL_ORIGIN', 'javascript://{shop}.returns.example.com'],
  ])('%s=%s is refused with a message naming it', (name, value) => {
    expect(() => readSettings({ [name]: value })).toThrow(SettingsError)
    expect(() => readSettings({ [name]: value })).toThrow(new RegExp(`${name}`))
  })

  test('every wrong setting is named at once, and a secret is never printed', () => {
    let message = ''
    try {
      readSettings({
        PORT: 'x',
        TOKEN_SECRET: 'too-short-secret',
        ADMIN_TOKEN: 'short-admin',
        SMTP_URL: 'mail://user:hunter2@mail.example',
      })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toMatch(/PORT="x"/)
    expect(message).toMatch(/TOKEN_SECRET=\(not shown\) must NOT have fewer than 32 characters/)
    expect(message).toMatch(/ADMIN_TOKEN=\(not shown\)/)
    expect(message).not.toContain('too-short-secret')
    expect(message).not.toContain('short-admin')
    expect(message).toMatch(/SMTP_URL=\(not shown\)/)
    expect(message).not.toContain('hunter2')
  })

  test("another program's variables are not settings", () => {
    expect(readSettings({ HOME: '/root', NODE_ENV: 'production' })).not.toHaveProperty('HOME')
  })
})

describe("docs/settings.md's table", () => {
  const doc = readFileSync(resolve(__dirname, '../../docs/settings.md'), 'utf8')
  const section = doc.slice(doc.indexOf('# Settings'))
  const rows = [
    ...section
      .slice(0, section.indexOf('\n\n', section.indexOf('| setting ')))
      .matchAll(/^\| `([A-Z_]+)` +\| ([^|]+) \|/gm),
  ].map(([, name, shown]) => [name!, shown!.trim()] as const)

  test('lists every setting the schema reads, and no other', () => {
    expect(rows.map(([name]) => name).sort()).toEqual(Object.keys(SETTINGS_SCHEMA.properties).sort())
  })

  test("gives each setting's default as the schema does ('unset' for those without one)", () => {
    const defaults = readSettings({}) as Record<string, string | number | boolean | undefined>
    for (const [name, shown] of rows) {
      const value = name === 'TRUST_PROXY' ? undefined : defaults[name]
      expect([name, shown]).toEqual([name, value === undefined ? 'unset' : `\`${String(value)}\``])
    }
  })
})
