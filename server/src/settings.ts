/**
 * Every setting of the server, read from the environment in one place: one schema gives each its
 * type, its limits and its default, and the start refuses a wrong value with a message naming it.
 * docs/settings.md's table lists the same settings (a test holds the two together).
 */
import { Type, type Static } from '@sinclair/typebox'
import envSchema from 'env-schema'
import { trustProxyFrom } from './trustProxy'

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
type LogLevel = (typeof LOG_LEVELS)[number]

export const SETTINGS_SCHEMA = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'the port of the API and the portal' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'the address to listen on' }),
  PORTAL_ORIGIN: Type.String({
    default: 'http://{shop}.localhost:{PORT}',
    pattern: '^https?://\\{shop\\}\\.(localhost|[a-z0-9-]+(\\.[a-z0-9-]+)+)(:([0-9]{1,5}|\\{PORT\\}))?$',
    description:
      "the portal's address, where shoppers' e-mails link: {shop} the shop's subdomain, {PORT} this server's port",
  }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description: 'the embedded database (PGlite) and its photos, when DATABASE_URL is unset',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: 'a PostgreSQL server instead of the embedded database (replicas share it)',
    }),
  ),
  TOKEN_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'signs sessions and links; unset, one is made on the first start and kept in the database',
    }),
  ),
  ADMIN_TOKEN: Type.Optional(
    Type.String({ minLength: 24, description: 'enables the operator routes (POST /admin/…) for this bearer token' }),
  ),
  DEMO_STAFF_PASSWORD: Type.Optional(
    Type.String({
      minLength: 12,
      maxLength: 256,
      description: "the demo staff account's password, set at the first start; unset: generated and printed",
    }),
  ),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description: "the mail server for shoppers' e-mails (smtp://user:pass@host:587); unset: kept in the outbox",
    }),
  ),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Boolean({
    default: false,
    description: 'true lets webhooks go to private, loopback and link-local addresses (development and tests only)',
  }),
  TRUST_PROXY: Type.Optional(
    Type.String({
      description: 'the proxies in front of the API, by address or range (10.0.0.0/8,loopback); unset: none',
    }),
  ),
  LOG_LEVEL: Type.Unsafe<LogLevel>({
    type: 'string',
    enum: [...LOG_LEVELS],
    default: 'info',
    description: `one of ${LOG_LEVELS.join(', ')}`,
  }),
  VERIFY_RATE_LIMIT_PER_IP: Type.Integer({
    minimum: 1,
    default: 30,
    description: 'verify attempts a minute from one client address',
  }),
  VERIFY_RATE_LIMIT_PER_ORDER: Type.Integer({
    minimum: 1,
    default: 10,
    description: 'verify attempts a minute at one order name, from anywhere',
  }),
  VERIFY_FAILURE_FLOOR_MS: Type.Integer({
    minimum: 0,
    maximum: 10_000,
    default: 250,
    description: 'the least time a failed verify takes',
  }),
})

type RawSettings = Static<typeof SETTINGS_SCHEMA>

export type Settings = Omit<RawSettings, 'TRUST_PROXY'> & {
  /** Fastify's trustProxy: false, or the proxies' addresses and ranges */
  TRUST_PROXY: false | string[]
}

export type SettingName = keyof RawSettings

/** Never printed, even when refused: a password in a URL, the signing key, the operator's token. */
const SECRET_SETTINGS = new Set<SettingName>([
  'DATABASE_URL',
  'TOKEN_SECRET',
  'ADMIN_TOKEN',
  'DEMO_STAFF_PASSWORD',
  'SMTP_URL',
])

export class SettingsError extends Error {
  override name = 'SettingsError'
}

/**
 * The settings from `env` (the process's environment by default). An empty value counts as unset
 * (`PORT=` is the default port, never port 0); anything else must fit the schema, or the start ends
 * here, before a database is opened, with every wrong setting named.
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const data: Record<string, string> = {}
  for (const name of Object.keys(SETTINGS_SCHEMA.properties)) {
    const value = env[name]
    if (value !== undefined && value.trim() !== '') data[name] = value.trim()
  }
  let raw: RawSettings
  try {
    // env: false, so only the settings above are read; the schema is copied, as env-schema
    // writes additionalProperties into the one it is given.
    raw = envSchema<RawSettings>({ schema: structuredClone(SETTINGS_SCHEMA), data, env: false })
  } catch (error) {
    const problems = (error as { errors?: { instancePath: string; message?: string }[] }).errors ?? []
    // One line a setting: its value, what is wrong with it, and what it is for.
    const lines = [...new Map(problems.map((problem) => [problem.instancePath, problem])).values()].map((problem) => {
      const name = problem.instancePath.replace(/^\//, '') as SettingName
      const described = SETTINGS_SCHEMA.properties[name]?.description
      const shown = SECRET_SETTINGS.has(name) ? '(not shown)' : JSON.stringify(data[name] ?? '')
      return `${name}=${shown} ${problem.message ?? 'is not valid'}${described ? ` (${described})` : ''}`
    })
    throw new SettingsError(
      `Settings refused (docs/settings.md):\n  ${lines.length > 0 ? lines.join('\n  ') : String(error)}`,
    )
  }
  let trustProxy: false | string[]
  try {
    trustProxy = trustProxyFrom(raw.TRUST_PROXY)
  } catch (error) {
    throw new SettingsError(`Settings refused (docs/settings.md):\n  ${(error as Error).message}`)
  }
  return { ...raw, TRUST_PROXY: trustProxy }
}
