/**
 * Screenshots of a running portal at phone and desktop widths, for looking at what we built:
 *   npx tsx e2e/screenshots.ts http://demo.localhost:8080 /tmp/shots
 * Walks the start screen and the whole #1001 journey (items, reasons, exchange, upsell offer and
 * exploration, refund method, confirm, instructions) and shoots every screen at 390 and 1280.
 *
 * Each width submits a return of #1001. With ADMIN_TOKEN set to the server's, the demo shops are
 * put back first (e2e/resetDemo.ts), so every walk starts from the demo data; without it, run
 * against a fresh DATA_DIR, e.g.
 *   npm run build && PORT=8090 DATA_DIR=$(mktemp -d) ADMIN_TOKEN=screenshots-admin-token-0001 npm start &
 *   ADMIN_TOKEN=screenshots-admin-token-0001 npx tsx e2e/screenshots.ts http://demo.localhost:8090 /tmp/shots
 */
import { chromium, type Page } from '@playwright/test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { resetDemoShop } from './resetDemo'

const [base = 'http://demo.localhost:8080', out = '/tmp/shots'] = process.argv.slice(2)
mkdirSync(out, { recursive: true })

/** The API on the same port, by address: Node does not resolve *.localhost. */
const api = (path: string) => {
  const url = new URL(base)
  return `${url.protocol}//127.0.0.1:${url.port}${path}`
}

async function resetDemoShops() {
  const token = process.env.ADMIN_TOKEN
  if (!token) {
    console.warn('ADMIN_TOKEN not set: the demo shops are not reset; #1001 must still have its tee and mug to return.')
    return
  }
  for (const name of ['demo.json', 'acme.json'] as const) await resetDemoShop(api(''), token, name)
}

async function shoot(page: Page, name: string, width: number) {
  await page.waitForLoadState('networkidle').catch(() => {})
  // The whole page in a viewport as tall as it (a full-page capture leaves the fixed background
  // behind at the first screen's height), then the phone's or desktop's viewport again.
  const viewport = page.viewportSize()!
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) })
  // Every image (lazy ones are in view now) decoded, so the shot shows what the shopper sees.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(Array.from(document.images, (image) => image.decode().catch(() => {}))),
      new Promise((resolve) => setTimeout(resolve, 5000)),
    ]),
  )
  await page.screenshot({ path: join(out, `${name}-${width}.png`) })
  await page.setViewportSize(viewport)
  console.log(`${name}-${width}.png  ${page.url()}`)
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true })

async function atStep(page: Page, path: RegExp | string, heading: string | RegExp) {
  await page.waitForURL(typeof path === 'string' ? (url) => url.pathname === path : path)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

async function walk(page: Page, width: number) {
  await page.goto(`${base}/?testMode=1`)
  await page.getByRole('textbox', { name: 'Order number' }).waitFor()
  await shoot(page, '01-start', width)
  await page.getByRole('textbox', { name: 'Order number' }).fill('#9999')
  await page.getByRole('textbox', { name: 'E-mail address' }).fill('nobody@example.com')
  await page.keyboard.press('Enter')
  await page.getByRole('alert').waitFor()
  await shoot(page, '02-start-error', width)

  await page.goto(`${base}/`)
  await page.getByRole('textbox', { name: 'Order number' }).fill('#1001')
  await page.getByRole('textbox', { name: 'E-mail address' }).fill('jane@example.com')
  await page.keyboard.press('Enter')
  await atStep(page, '/products', 'Choose the items to return')
  await shoot(page, '03-products', width)
  await page.getByRole('checkbox', { name: /^Classic Tee/ }).check()
  await page.getByRole('checkbox', { name: /^Ceramic Mug/ }).check()
  await shoot(page, '04-products-chosen', width)
  await button(page, 'Continue').click()

  await atStep(page, '/return-item/li-1001-001/return-reason', /Classic Tee/)
  await button(page, 'Continue').click()
  await page.getByRole('alert').waitFor()
  await shoot(page, '05-reason-missing', width)
  await page.getByRole('radio', { name: 'Arrived damaged' }).check()
  await page.getByRole('textbox', { name: /Tell us more/ }).fill('A small hole near the collar.')
  await shoot(page, '06-reason-comment', width)
  await page.getByRole('radio', { name: 'Too small', exact: true }).check()
  await button(page, 'Continue').click()

  await atStep(page, '/return-item/li-1001-001/exchange', /exchange the Classic Tee/)
  await page.getByRole('radio', { name: /Size L$/ }).check()
  await shoot(page, '07-exchange', width)
  await button(page, 'Continue').click()

  await atStep(page, '/return-item/li-1001-002/return-reason', /Ceramic Mug/)
  await page.getByRole('radio', { name: 'Changed my mind', exact: true }).check()
  await shoot(page, '08-reason-mug', width)
  await button(page, 'Continue').click()

  await atStep(page, '/upsell-offer', 'Exchange for something new?')
  await shoot(page, '09-upsell-offer', width)
  await button(page, 'Yes, show me new items').click()
  await atStep(page, '/upsell-explore', /.+/)
  await button(page, 'Choose this item').waitFor()
  await shoot(page, '10-upsell-explore', width)
  await page.goBack()
  await atStep(page, '/upsell-offer', 'Exchange for something new?')
  await button(page, 'No thanks, continue with my return').click()

  await atStep(page, '/refund-method', 'How would you like your refund?')
  await page.getByRole('radio', { name: /^Store credit/ }).check()
  await shoot(page, '11-refund-method', width)
  await button(page, 'Continue').click()

  await atStep(page, '/confirm', 'Check and confirm your return')
  await page.locator('dl').waitFor()
  await shoot(page, '12-confirm', width)
  await button(page, 'Submit return').click()

  await atStep(page, '/return-instruction', 'Your return is registered')
  await page.getByRole('img', { name: /QR code/ }).waitFor()
  await shoot(page, '13-instructions', width)
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  for (const width of [390, 1280]) {
    await resetDemoShops()
    const context = await browser.newContext({
      viewport: { width, height: width < 500 ? 844 : 800 },
      deviceScaleFactor: 1,
    })
    const page = await context.newPage()
    await walk(page, width)
    await context.close()
  }
  await browser.close()
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
