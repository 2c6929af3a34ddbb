/**
 * The shapes of the Portal API that the shop file holds (the portal configuration, return reasons,
 * refund timings, the return address), built from the contract's schemas with the file's limits
 * added, so the file and the API cannot drift apart.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import {
  Address,
  PortalConfig,
  ReasonFit,
  RefundMethod,
  RefundTiming,
  type ReturnReasonFields,
} from '../../../contract/api'
import { PHOTOS_PER_ITEM } from '../../../contract/constants'
import { REASON_DEPTH } from '../../../contract/reasonTree'
import { LIMITS } from './limits'
import { Fields, List, NonEmpty, textLimits, urlLimits, withLimits } from './shopFileFields'

const portal = PortalConfig.properties
const text = textLimits()
const multiplier = { minimum: 1, maximum: 10, errorMessage: 'must be null or a number from 1 to 10, like 1.1' }

/** The portal configuration (GET /portal-registration/config/{id}); `shop` is taken from the top level. */
export const ConfigFile = Fields({
  portal_id: withLimits(portal.portal_id, textLimits(LIMITS.id, true)),
  favicon_src: withLimits(portal.favicon_src, urlLimits),
  document_title_text: withLimits(portal.document_title_text, text),
  background_src: withLimits(portal.background_src, urlLimits),
  logo_src: withLimits(portal.logo_src, urlLimits),
  website_url: withLimits(portal.website_url, urlLimits),
  start_return_message: withLimits(portal.start_return_message, text),
  order_placeholder_text: withLimits(portal.order_placeholder_text, text),
  order_tooltip_text: withLimits(portal.order_tooltip_text, text),
  start_return_button_message: withLimits(portal.start_return_button_message, text),
  button_color: withLimits(portal.button_color, textLimits(100)),
  need_help_message: withLimits(portal.need_help_message, text),
  order_prefix: withLimits(portal.order_prefix, {
    pattern: '^[A-Z0-9]{1,10}$',
    errorMessage: 'must be 1 to 10 upper-case letters or digits, like "AC"',
  }),
  // The limits go on the number, not on the union with null: Ajv's strict mode wants them beside their type.
  gift_card_value_multiplier: Type.Optional(
    Type.Union([withLimits(portal.gift_card_value_multiplier.anyOf[0], multiplier), Type.Null()], {
      errorMessage: multiplier.errorMessage,
    }),
  ),
  invalid_order_message: withLimits(portal.invalid_order_message, text),
  order_not_fulfilled_message: withLimits(portal.order_not_fulfilled_message, text),
  order_too_old_message: withLimits(portal.order_too_old_message, text),
  order_already_has_return_message: withLimits(portal.order_already_has_return_message, text),
  default_error_message: withLimits(portal.default_error_message, text),
} satisfies Omit<typeof portal, 'shop'>)

export type ConfigFile = Static<typeof ConfigFile>

/** A language variant, served at /portal-registration/config/{shop}-{lang}: fields over `config`. */
export const ConfigVariantFile = Type.Omit(ConfigFile, ['portal_id'])
export type ConfigVariantFile = Static<typeof ConfigVariantFile>

// The contract's reason fields with the file's limits: `satisfies` fails the build when the contract
// gains a field the file does not list (its ReturnReason is recursive, so the fields are read from
// ReturnReasonFields).
const reasonProperties = {
  id: Type.String({
    maxLength: 64,
    pattern: '^[a-z0-9][a-z0-9_-]*$',
    errorMessage: 'must be a lower-case id of letters, digits, "_" or "-", like "too_small"',
  }),
  label: NonEmpty(LIMITS.title),
  comment_required: Type.Boolean(),
  fit: Type.Optional(withLimits(ReasonFit, { errorMessage: 'must be "too_small" or "too_large"' })),
  photos_required: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PHOTOS_PER_ITEM,
      errorMessage: `must be a whole number of photos from 1 to ${PHOTOS_PER_ITEM} (leave it out when no photo is needed)`,
    }),
  ),
} satisfies Record<keyof typeof ReturnReasonFields, TSchema>

const SubReasons = <T extends TSchema>(level: T) => Type.Optional(List(level, LIMITS.returnReasons, true))

// A reason and its sub-reasons, written out level by level rather than as the contract's recursive
// $ref, so a hostile file nested a thousand deep is one error, not a deep walk.
const LastLevel = Fields({
  ...reasonProperties,
  children: Type.Optional(
    Type.Never({
      errorMessage: `reasons nest at most ${REASON_DEPTH} levels deep: this sub-reason cannot have sub-reasons of its own`,
    }),
  ),
})
const SecondLevel = Fields({ ...reasonProperties, children: SubReasons(LastLevel) })
export const ReasonFile = Fields({ ...reasonProperties, children: SubReasons(SecondLevel) })
/** One level per REASON_DEPTH: when it changes, this stops compiling until a level is added or removed. */
const _levels = [ReasonFile, SecondLevel, LastLevel] as const satisfies { length: typeof REASON_DEPTH }

const timing = RefundTiming.properties
const refundDays = {
  minimum: 0,
  maximum: LIMITS.refundDays,
  errorMessage: `must be a whole number of days from 0 to ${LIMITS.refundDays}`,
}
const RefundTimingFile = Fields({
  from_days: withLimits(timing.from_days, refundDays),
  to_days: withLimits(timing.to_days, refundDays),
  business_days: timing.business_days,
  after: withLimits(timing.after, {
    errorMessage: 'must be "submit" (counted from the return\'s submission) or "receipt" (from the items\' arrival)',
  }),
} satisfies typeof timing)

/** The timing of each refund method the shop sets it for. */
export const RefundTimingsFile = Type.Partial(Type.Record(RefundMethod, RefundTimingFile), {
  additionalProperties: false,
})

const address = Address.properties
export const AddressFile = Fields({
  name: withLimits(address.name, textLimits(200, true)),
  line1: withLimits(address.line1, textLimits(200, true)),
  line2: withLimits(address.line2, textLimits(200)),
  city: withLimits(address.city, textLimits(200, true)),
  region: withLimits(address.region, textLimits(100)),
  postal_code: withLimits(address.postal_code, textLimits(20, true)),
  country_code: withLimits(address.country_code, {
    pattern: '^[A-Z]{2}$',
    errorMessage: 'must be an ISO 3166 country code like "DE"',
  }),
} satisfies typeof address)
