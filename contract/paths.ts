/** Every route of docs/rules.md §3, each with a URL builder. URLs come only from here. */
export const paths = {
  start: { pattern: '/', build: () => '/' },
  products: { pattern: '/products', build: () => '/products' },
  returnReason: {
    pattern: '/return-item/:id/return-reason',
    build: (id: string) => `/return-item/${encodeURIComponent(id)}/return-reason`,
  },
  exchange: {
    pattern: '/return-item/:id/exchange',
    build: (id: string) => `/return-item/${encodeURIComponent(id)}/exchange`,
  },
  upsellOffer: { pattern: '/upsell-offer', build: () => '/upsell-offer' },
  upsellExplore: { pattern: '/upsell-explore', build: () => '/upsell-explore' },
  refundMethod: { pattern: '/refund-method', build: () => '/refund-method' },
  confirm: { pattern: '/confirm', build: () => '/confirm' },
  returnInstruction: { pattern: '/return-instruction', build: () => '/return-instruction' },
  /** support staff open a shopper's session from a support code (docs/rules.md §1.4: support staff) */
  support: { pattern: '/support', build: () => '/support' },
  /**
   * A submitted return's status, from a link the shopper keeps: no session needed. The signature
   * is in the fragment, which never reaches a server, its logs or a Referer.
   */
  status: {
    pattern: '/status/:id',
    build: (id: string, signature: string, lang: string | null = null) =>
      `/status/${encodeURIComponent(id)}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}#${encodeURIComponent(signature)}`,
  },
} as const
