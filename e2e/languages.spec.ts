import type { Page } from '@playwright/test'
import { expect, expectAccessible, shopUrl, test } from './fixtures'

/**
 * `?lang=de` (docs/rules.md §16.2): the German variant of the shop's configuration and the portal's own
 * words in German, on every screen of the #1001 journey, kept across a reload, with axe on each.
 */
const heading = (page: Page) => page.getByRole('heading', { level: 1 })
const weiter = (page: Page) => page.getByRole('button', { name: 'Weiter', exact: true })

async function atStep(page: Page, path: string, title: string | RegExp) {
  await expect(page).toHaveURL((url) => url.pathname === path)
  await expect(heading(page)).toHaveText(title)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expectAccessible(page)
}

test('#1001 in German: the configuration variant, the portal’s words, money and dates, to the instructions', async ({
  page,
  resetDemoShops,
  shopConfig,
}) => {
  await resetDemoShops()
  const config = await shopConfig('demo-de')

  await page.goto(shopUrl('demo', '/?lang=de'))
  await expect(heading(page)).toHaveText(config.start_return_message!)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('contentinfo')).toHaveText('Bereitgestellt von Rebound')
  await page.getByRole('textbox', { name: 'Bestellnummer' }).fill('#1001')
  await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill('nobody@example.com')
  await page.getByRole('button', { name: config.start_return_button_message! }).click()
  // The configured German message of the error catalogue (docs/rules.md §12).
  await expect(page.getByRole('alert')).toHaveText(config.invalid_order_message!)
  await expectAccessible(page)
  await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill('jane@example.com')
  await page.getByRole('button', { name: config.start_return_button_message! }).click()

  await atStep(page, '/products', 'Wählen Sie die Artikel für die Rücksendung')
  await expect(page.getByText(/Bestellt am \d{1,2}\. \w+ 2026/)).toBeVisible()
  await expect(page.getByText('Wählen Sie mindestens einen Artikel, um fortzufahren.')).toBeVisible()
  await expect(page.getByText('Vom Umtausch ausgeschlossen')).toBeVisible()
  await page.getByRole('checkbox', { name: /^Classic Tee/ }).check()
  await page
    .getByRole('group', { name: 'Menge von Classic Tee für die Rücksendung' })
    .getByRole('button', { name: 'Menge erhöhen' })
    .click()
  await expect(page.getByText('2 Artikel ausgewählt')).toBeVisible()
  await page.getByRole('checkbox', { name: /^Ceramic Mug/ }).check()
  await expect(page.getByText('3 Artikel ausgewählt')).toBeVisible()
  await weiter(page).click()

  await atStep(page, '/return-item/li-1001-001/return-reason', 'Warum senden Sie „Classic Tee“ zurück?')
  // The reasons come from the API in the shopper's language too.
  await page.getByRole('radio', { name: 'Zu klein' }).check()
  await page.reload()
  await atStep(page, '/return-item/li-1001-001/return-reason', 'Warum senden Sie „Classic Tee“ zurück?')
  await expect(page.getByRole('radio', { name: 'Zu klein' })).toBeChecked()
  await weiter(page).click()

  await atStep(page, '/return-item/li-1001-001/exchange', 'Möchten Sie „Classic Tee“ umtauschen?')
  await expect(page.getByText('Nicht vorrätig')).toBeVisible()
  // The catalogue says "Size"; the German screen says "Größe" everywhere.
  await page.getByRole('radio', { name: /Größe L$/ }).check()
  await expect(page.getByText(/Size/)).toHaveCount(0)
  await weiter(page).click()

  await atStep(page, '/return-item/li-1001-002/return-reason', 'Warum senden Sie „Ceramic Mug“ zurück?')
  await page.getByRole('radio', { name: 'Ich habe es mir anders überlegt' }).check()
  await weiter(page).click()

  await atStep(page, '/upsell-offer', 'Gegen etwas Neues tauschen?')
  await expect(page.getByText('+10 %')).toBeVisible()
  await page.getByRole('button', { name: 'Nein danke, mit der Rücksendung fortfahren' }).click()

  await atStep(page, '/refund-method', 'Wie möchten Sie Ihre Erstattung erhalten?')
  // Money in German: decimal comma, the euro sign after the amount.
  await expect(page.getByRole('radio', { name: /^Guthaben \(Geschenkkarte\).*\d+,\d{2}\s€/ })).toBeVisible()
  await page.getByRole('radio', { name: /^Guthaben/ }).check()
  await weiter(page).click()

  await atStep(page, '/confirm', 'Rücksendung prüfen und bestätigen')
  await expect(page.getByText('Rücksendegebühr')).toBeVisible()
  await expect(page.getByText('Umtausch gegen L')).toBeVisible()
  await page.getByRole('button', { name: 'Rücksendung absenden' }).click()

  await atStep(page, '/return-instruction', 'Ihre Rücksendung ist angemeldet')
  await expect(page.getByRole('link', { name: 'Versandetikett herunterladen (PDF)' })).toBeVisible()
  await expect(page.getByText(/^Verpacken Sie die Artikel/)).toBeVisible()
  await expect(page.getByText('Deutschland')).toBeVisible()
})

test('a language the portal has no words for shows English words with the shop’s base configuration', async ({
  page,
  shopConfig,
}) => {
  const config = await shopConfig('demo')
  await page.goto(shopUrl('demo', '/?lang=pt-BR'))
  await expect(heading(page)).toHaveText(config.start_return_message!)
  await expect(page.getByRole('textbox', { name: 'Order number' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
})
