/** Said where staff act on a return while no store is connected (docs/back-office.md: Store connection). */
export const NO_STORE_CONNECTED =
  'No store is connected: refunds, store credit, exchanges and restocks are recorded here, not carried out in your store.'
