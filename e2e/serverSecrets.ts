/**
 * The secrets the journeys' server is started with (playwright.config.ts): ADMIN_TOKEN enables
 * POST /admin/… (the journeys reset the demo shops and move items on with it), and the suite
 * knows TOKEN_SECRET so that build.spec.ts can show no file the server sends holds either. Both
 * are as long as the server's settings ask (docs/settings.md).
 */
export const ADMIN_TOKEN = 'e2e-admin-token-for-the-journeys'
export const TOKEN_SECRET = 'e2e-token-secret-never-shipped-anywhere'
/** The demo's back-office account's password, set at the server's first start (docs/back-office.md). */
export const DEMO_STAFF_PASSWORD = 'e2e-demo-staff-password'
export const ADMIN_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}` }
