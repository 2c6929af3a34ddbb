import type { PortalConfig } from '../../contract/api'

// The configuration's fields by kind, for its sanitiser: a module of their own, so that the start
// bundle, which reads only these, does not carry the rest of the contract's values (photo limits,
// refund methods, item states), which later screens' chunks share.

/** The text fields of the configuration (shown as text, never as HTML). */
export const CONFIG_TEXT_FIELDS = [
  'document_title_text',
  'start_return_message',
  'order_placeholder_text',
  'order_tooltip_text',
  'start_return_button_message',
  'need_help_message',
  'order_prefix',
  'shop',
  'portal_id',
  'invalid_order_message',
  'order_not_fulfilled_message',
  'order_too_old_message',
  'order_already_has_return_message',
  'default_error_message',
] as const satisfies readonly (keyof PortalConfig)[]

/** The URL fields of the configuration (only http: and https: are used). */
export const CONFIG_URL_FIELDS = [
  'favicon_src',
  'background_src',
  'logo_src',
  'website_url',
] as const satisfies readonly (keyof PortalConfig)[]
