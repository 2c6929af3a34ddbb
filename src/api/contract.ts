/**
 * The Portal API contract now lives in `contract/` at the top of the repository, shared by the
 * portal and the server: `contract/api.ts` (the schemas and the types derived from them) and
 * `contract/constants.ts` (plain constants, free of the schema library). This module passes them
 * on until every import names `contract/` itself.
 */
export type * from '../../contract/api'
export * from '../../contract/constants'
