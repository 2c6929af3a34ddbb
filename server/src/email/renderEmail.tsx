/**
 * Renders an e-mail row of the outbox (docs/events.md): the shop's brand and sender, the
 * shopper's language, links to the portal address the shopper used, HTML and plain text.
 */
import { setupI18n, type I18n } from '@lingui/core'
import { render, toPlainText } from '@react-email/render'
import { colord, extend } from 'colord'
import namesPlugin from 'colord/plugins/names'
import { formatShopperMoney as formatMoney } from '../../../contract/money'
import { optionsName, sizeKind } from '../../../contract/variantName'
import { indexCatalogue } from '../domain/catalogue'
import { signStatus } from '../domain/token'
import type { EmailPayload, RenderedEmail } from '../storage/outbox'
import type { ShopRecord } from '../storage/shops'
import { messages as de } from './catalogs/de'
import { messages as en } from './catalogs/en'
import { messages as es } from './catalogs/es'
import { messages as fr } from './catalogs/fr'
import { labelOf } from './EmailParts'
import { qrPng } from './qrImage'
import { ReturnEmail, titlesOf, type EmailBrand } from './ReturnEmail'

extend([namesPlugin])

export const EMAIL_LANGUAGES = ['en', 'de', 'fr', 'es'] as const
const CATALOGS = { en, de, fr, es }

const i18nFor = new Map<string, I18n>(
  EMAIL_LANGUAGES.map((lang) => [lang, setupI18n({ locale: lang, messages: { [lang]: CATALOGS[lang] } })]),
)

/**
 * The e-mail's language: the shopper's when the e-mails speak it and the shop has its own texts in
 * it (a configuration variant or reasons in that language); else English, whole. A French e-mail
 * never carries the shop's English "need help" words (decision 0063). Without `shop`, only the
 * e-mails' own languages are asked about.
 */
export function emailLanguage(
  lang: string | null | undefined,
  shop?: Pick<ShopRecord, 'config_variants' | 'return_reason_variants'>,
): (typeof EMAIL_LANGUAGES)[number] {
  const known = EMAIL_LANGUAGES.find((each) => each === lang)
  if (!known || known === 'en' || !shop) return known ?? 'en'
  return shop.config_variants[known] || shop.return_reason_variants[known] ? known : 'en'
}

/** Days a parcel is dropped off within, as the return's instructions say (routes/instructions.ts). */
export const SEND_WITHIN_DAYS = 14

/**
 * A calendar day (YYYY-MM-DD) in the e-mail's language: "December 1, 2026", "1. Dezember 2026",
 * and in French the first of the month as an ordinal, "1er décembre 2026".
 */
export function formatDay(lang: string, day: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  const words = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
  return lang === 'fr' && date.getUTCDate() === 1 ? words.replace(/^1(?=\s)/, '1er') : words
}

/** Option names that hold a size or a waist, named in the e-mail's language (as the portal does, decision 0066). */
/**
 * A variant by its options, as the shopper chose it: "Size 43", "Größe 43", "Colour Blue, Size M";
 * a size or waist named in the e-mail's language, other names as the shop wrote them; null
 * without options (or with only a placeholder's).
 */
function optionsNameIn(
  options: readonly { name: string; value: string }[] | undefined,
  t: (id: string) => string,
): string | null {
  return optionsName(options, (name) => {
    const kind = sizeKind(name)
    return kind === 'waist' ? t('option.waist') : kind === 'size' ? t('option.size') : name
  })
}

/** The content id of the drop-off code's image, attached to the message. */
export const QR_CID = 'dropoff-code@rebound'

export const FALLBACK_FROM = 'returns@rebound.invalid'

function brandOf(shop: ShopRecord, lang: string, origin: string | null): EmailBrand {
  const config = { ...shop.config, ...(shop.config_variants[lang] ?? {}) }
  const color = config.button_color && colord(config.button_color).isValid() ? colord(config.button_color) : null
  const logo = config.logo_src ? absolute(config.logo_src, origin) : null
  return {
    shop: config.document_title_text ?? shop.id,
    logoSrc: logo,
    color: color ? color.toHex() : '#1f5fbf',
    onColor: color && color.isLight() ? '#111111' : '#ffffff',
    help: config.need_help_message ?? null,
  }
}

/**
 * The status page's link as the shopper's e-mails carry it (the console copies the same): it
 * opens in the e-mail's language, as the portal's `lang` picks it (decision 0063).
 */
export function shopperStatusUrl(secret: Buffer, returnId: string, lang: string, origin: string | null): string | null {
  return absolute(
    `/status/${encodeURIComponent(returnId)}${lang === 'en' ? '' : `?lang=${lang}`}#${signStatus(secret, returnId)}`,
    origin,
  )
}

/** An address made absolute on the portal's; null when it cannot be (no portal address known). */
export function absolute(path: string, origin: string | null): string | null {
  try {
    return new URL(path, origin ?? undefined).toString()
  } catch {
    return null
  }
}

export interface EmailToSend extends RenderedEmail {
  /** the drop-off code's PNG, shown inline by its content id */
  attachments: { cid: string; filename: string; content: Buffer; contentType: string }[]
}

/** The message of an e-mail row (from the shop file's `email.from` and `reply_to`, else Rebound's own address), ready for SMTP (the QR code attached) and for the outbox. */
export async function renderEmail(
  shop: ShopRecord,
  recipient: string,
  payload: EmailPayload,
  secret: Buffer,
): Promise<EmailToSend> {
  const lang = emailLanguage(payload.language, shop)
  const i18n = i18nFor.get(lang)!
  const t = (id: string, values?: Record<string, string | number>) => i18n._(id, values)
  const { status, origin, deal } = payload
  const statusUrl = shopperStatusUrl(secret, status.return_id, lang, origin)
  const catalogue = indexCatalogue(shop.catalogue, shop.currency_code)
  const variantName = (lineItemId: string, which: 'bought' | 'exchange') => {
    const ids = deal?.variants[lineItemId]
    const id = which === 'bought' ? ids?.variant_id : ids?.exchange_variant_id
    return id ? optionsNameIn(catalogue.variant(id)?.options, t) : null
  }
  const newItemVariant = status.new_item
    ? optionsNameIn(catalogue.variant(status.new_item.variant_id)?.options, t)
    : null
  const written = deal ? new Date(deal.at) : new Date(status.created_at)
  const sendBy = formatDay(lang, new Date(written.getTime() + SEND_WITHIN_DAYS * 86_400_000).toISOString().slice(0, 10))
  // The label travels with the e-mails that say how to send the items: created and approved.
  const label = payload.kind === 'created' || payload.kind === 'approved' ? labelOf(status) : null
  const labelUrl = label ? absolute(label.label_url, origin) : null
  const qr = label ? await qrPng(label.qr_code_value) : null
  const percentFormat = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 })
  const element = (
    <ReturnEmail
      kind={payload.kind}
      lang={lang}
      t={t}
      brand={brandOf(shop, lang, origin)}
      status={status}
      orderName={payload.order_name}
      lineItemIds={payload.line_item_ids}
      statusUrl={statusUrl}
      labelUrl={labelUrl}
      qrSrc={qr ? `cid:${QR_CID}` : null}
      deal={deal}
      variantName={variantName}
      newItemVariant={newItemVariant}
      engineReferences={payload.engine_references ?? []}
      sendBy={label ? sendBy : null}
      countryName={(code) => new Intl.DisplayNames(lang, { type: 'region' }).of(code) ?? code}
      formatMoney={(money) => formatMoney(money, lang)}
      formatDate={(day) => formatDay(lang, day)}
      formatPercent={(percent) => percentFormat.format(percent / 100)}
    />
  )
  const html = await render(element)
  return {
    from: shop.email?.from ?? FALLBACK_FROM,
    reply_to: shop.email?.reply_to ?? null,
    to: recipient,
    subject: t(titlesOf(payload.kind, status).subject, { name: status.return_name }),
    html,
    text: toPlainText(html),
    attachments: qr ? [{ cid: QR_CID, filename: 'dropoff-code.png', content: qr, contentType: 'image/png' }] : [],
  }
}
