/**
 * The checks of a shop file that its schema cannot express: the shop's name, the currency, URLs
 * and colours, ids that must be unique or must exist, the reason tree's rules, the catalogue's
 * variants, (orderChecks.ts) the orders and their returns, and (policyChecks.ts) the policy. They run on a file of the right
 * shape, and report every error they find.
 */
import { colord, extend } from 'colord'
import namesPlugin from 'colord/plugins/names'
import type { ReturnReason } from '../../../contract/api'
import { REFUND_METHODS } from '../../../contract/constants'
import type { Segment } from './errorLines'
import { minorDigits } from '../../../contract/money'
import { fieldChecks, isCurrency, type FieldChecks } from './fieldChecks'
import { LIMITS } from './limits'
import { checkProduct } from './catalogueChecks'
import { orderErrors } from './orderChecks'
import { policyErrors } from './policyChecks'
import type { ConfigVariantFile } from './apiShapes'
import type { ShopFile } from './shopFileSchema'

extend([namesPlugin])

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const LANGUAGE = /^[a-z]{2}$/
const LANGUAGE_KEY = 'must be keyed by a 2-letter lower-case language code like "de"'

export function semanticErrors(file: ShopFile, now: Date): string[] {
  const currencyKnown = isCurrency(file.currency_code)
  const digits = currencyKnown ? minorDigits(file.currency_code) : 2
  const checks = fieldChecks(file.currency_code, digits, now)
  const { fail } = checks

  if (!DNS_LABEL.test(file.shop)) {
    fail(
      ['shop'],
      'must be a lower-case DNS label: 1 to 63 letters, digits or "-", not starting or ending with "-", like "acme"',
    )
  } else if (/-[a-z]{2}$/.test(file.shop)) {
    fail(['shop'], 'must not end in "-" and two letters: that is how language variants are addressed ("acme-de")')
  }
  if (!currencyKnown) fail(['currency_code'], `"${file.currency_code}" is not an ISO 4217 currency code`)

  settingsErrors(file.settings, checks)
  configErrors(['config'], file.config, checks)
  for (const [language, variant] of Object.entries(file.config_variants ?? {})) {
    if (!LANGUAGE.test(language)) fail(['config_variants', language], LANGUAGE_KEY)
    else configErrors(['config_variants', language], variant, checks)
  }
  reasonErrors(file, checks)
  const variantIds = catalogueErrors(file.catalogue, checks)
  orderErrors(file, variantIds, digits, checks)
  if (file.policy) policyErrors(file.policy, file.return_reasons, ['policy'], checks)
  return checks.errors
}

function settingsErrors(settings: ShopFile['settings'], { amount, fail }: FieldChecks) {
  amount(['settings', 'return_fee'], settings.return_fee)
  if (settings.keep_item_below !== undefined) amount(['settings', 'keep_item_below'], settings.keep_item_below)
  for (const method of REFUND_METHODS) {
    const timing = settings.refund_timing?.[method]
    if (timing && timing.to_days < timing.from_days)
      fail(['settings', 'refund_timing', method, 'to_days'], 'must not be less than from_days')
  }
}

/** The configuration, or one of its language variants. */
function configErrors(base: Segment[], config: ConfigVariantFile, { url, fail }: FieldChecks) {
  for (const field of ['favicon_src', 'background_src', 'logo_src', 'website_url'] as const)
    url([...base, field], config[field])
  const color = config.button_color
  if (color !== undefined && (color !== color.trim() || !colord(color).isValid())) {
    fail([...base, 'button_color'], 'must be a CSS colour like "#1f5fbf", "rgb(31 95 191)" or "navy"')
  }
}

/** Reason ids are unique across the whole tree: a shopper's choice names one leaf. */
function reasonErrors(file: ShopFile, { id, fail }: FieldChecks) {
  const reasonIds = new Set<string>()
  const checkReasons = (reasons: ReturnReason[], base: Segment[]) =>
    reasons.forEach((reason, i) => {
      const at = [...base, i]
      id([...at, 'id'], reason.id)
      if (reasonIds.has(reason.id))
        fail(
          [...at, 'id'],
          `"${reason.id}" is used by another return reason (ids are unique across reasons and sub-reasons)`,
        )
      reasonIds.add(reason.id)
      if (!reason.children) return
      // A reason with sub-reasons is never chosen itself: what it would ask belongs on its sub-reasons.
      if (reason.comment_required)
        fail(
          [...at, 'comment_required'],
          'must be false on a reason with sub-reasons; require the comment on its sub-reasons',
        )
      if (reason.photos_required !== undefined)
        fail([...at, 'photos_required'], 'is only for a reason without sub-reasons; set it on its sub-reasons')
      if (reason.fit !== undefined)
        fail([...at, 'fit'], 'is only for a reason without sub-reasons; set it on its sub-reasons')
      checkReasons(reason.children, [...at, 'children'])
    })
  checkReasons(file.return_reasons, ['return_reasons'])
  if (reasonIds.size > LIMITS.reasonsInAll)
    fail(
      ['return_reasons'],
      `must have at most ${LIMITS.reasonsInAll} reasons in all, sub-reasons included (the file has ${reasonIds.size})`,
    )
  for (const [language, labels] of Object.entries(file.return_reason_variants ?? {})) {
    if (!LANGUAGE.test(language)) {
      fail(['return_reason_variants', language], LANGUAGE_KEY)
      continue
    }
    for (const reasonId of Object.keys(labels)) {
      if (!reasonIds.has(reasonId))
        fail(['return_reason_variants', language, reasonId], 'is not the id of a return reason in return_reasons')
    }
  }
}

/** Products and variants: unique ids, and variants of a product that differ by the same options. */
function catalogueErrors(catalogue: ShopFile['catalogue'], checks: FieldChecks): Set<string> {
  const productIds = new Set<string>()
  const variantIds = new Set<string>()
  catalogue.forEach((product, p) => {
    if (productIds.has(product.id)) checks.fail(['catalogue', p, 'id'], `"${product.id}" is used by another product`)
    productIds.add(product.id)
    checkProduct(product, ['catalogue', p], variantIds, checks)
  })
  return variantIds
}
