import type { EngineDirectory } from './commerce/engine'
import type { Database } from './storage/database'
import type { PhotoStore } from './storage/photoStore'
import type { ShopRepository } from './storage/shops'
import { readSettings } from './settings'

export interface Limits {
  /** lifetime of a verify token */
  tokenTtlSeconds: number
  /** lifetime of a signed label link */
  labelTtlSeconds: number
  /** a return's status link works this long after the return was made */
  statusLinkTtlSeconds: number
  /** verify attempts per client address per minute */
  verifyPerClient: number
  /** verify attempts per order name per minute, whoever makes them */
  verifyPerOrder: number
  /** every failed verify takes at least this long, so failures cannot be told apart by time */
  verifyFailureFloorMs: number
  /** a staff session ends after this long without a request */
  staffIdleSeconds: number
  /** and this long after sign-in, however busy */
  staffSessionSeconds: number
  /** sign-in attempts per client address per minute */
  signInPerClient: number
  /** Orders API calls with a wrong key per client address per minute; past it, every call of the client waits */
  apiKeyFailuresPerClient: number
}

/** What the routes share: storage, the signing secret, the clock and the limits. */
export interface PortalContext {
  db: Database
  shops: ShopRepository
  secret: Buffer
  now: () => Date
  limits: Limits
  /** where photos' bytes are kept */
  photos: PhotoStore
  /** each shop's commerce engine, where its refunds, credits, exchanges and restocks are carried out */
  engines: EngineDirectory
  /** the outbox's delivery (docs/events.md): woken after a change writes to it */
  events: { nudge(): void; allowPrivateNetworks: boolean; /** e-mails go out over SMTP_URL */ smtp: boolean }
  /** the shop's portal address from PORTAL_ORIGIN, where its e-mails link (routes/hosts.ts) */
  portalOrigin(shop: string): string
}

/** The settings of a server started with none: the verify limits are the settings' defaults. */
const shipped = readSettings({})

export const DEFAULT_LIMITS: Limits = {
  tokenTtlSeconds: 2 * 60 * 60,
  labelTtlSeconds: 30 * 24 * 60 * 60,
  statusLinkTtlSeconds: 365 * 24 * 60 * 60,
  verifyPerClient: shipped.VERIFY_RATE_LIMIT_PER_IP,
  verifyPerOrder: shipped.VERIFY_RATE_LIMIT_PER_ORDER,
  verifyFailureFloorMs: shipped.VERIFY_FAILURE_FLOOR_MS,
  staffIdleSeconds: 30 * 60,
  staffSessionSeconds: 12 * 60 * 60,
  signInPerClient: 30,
  apiKeyFailuresPerClient: 30,
}
