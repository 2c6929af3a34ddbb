/** Limits of the shop file format: a hostile file must not exhaust the server. */
export const LIMITS = {
  orders: 10_000,
  lineItemsPerOrder: 1_000,
  returnsPerOrder: 100,
  products: 5_000,
  variantsPerProduct: 250,
  optionsPerVariant: 5,
  tagsPerProduct: 50,
  returnReasons: 50,
  /** reasons in the whole tree, sub-reasons included */
  reasonsInAll: 200,
  languages: 50,
  text: 2_000,
  title: 500,
  id: 128,
  url: 2_048,
  email: 254,
  quantity: 100_000,
  webhooks: 20,
  returnWindowDays: 3_650,
  refundDays: 365,
  /** errors reported at most; the rest are counted */
  errors: 200,
} as const
