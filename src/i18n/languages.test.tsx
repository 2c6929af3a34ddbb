import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ChosenItem, ReturnFlowState } from '../features/returnFlow/returnFlowSlice'
import type { Launch } from '../../contract/launch'
import {
  buildCatalogue,
  buildConfig,
  buildFlow,
  buildInstructions,
  buildLineItem,
  buildOrder,
  buildQuote,
  buildSubmittedReturn,
  buildVariant,
  money,
} from '../testing/builders'
import { renderPortal } from '../testing/renderWithProviders'
import { server } from '../testing/server'
import { uiLocale } from './i18n'

const tee = buildLineItem({
  id: 'tee',
  title: 'Classic Tee',
  variant_title: 'M',
  variant_id: 'v-m',
  quantity: 3,
  returnable_quantity: 3,
})
const mug = buildLineItem({ id: 'mug', title: 'Ceramic Mug', variant_title: null, variant_id: null })
const order = buildOrder({
  line_items: [tee, mug],
  exchange_data: {
    options: { 'v-m': ['v-m', 'v-l'] },
    upsell_enabled: true,
    variants: { 'v-l': buildVariant({ id: 'v-l', title: 'L' }) },
  },
})
const items: ChosenItem[] = [
  { lineItemId: 'tee', quantity: 2, reason: { id: 'too-small', comment: '' }, exchange: { kind: 'refund' } },
  { lineItemId: 'mug', quantity: 1, reason: { id: 'too-small', comment: '' }, exchange: null },
]
const quote = buildQuote('11.50', {
  store_credit_value: money('12.65'),
  breakdown: {
    items_subtotal: money('10.00'),
    tax: money('2.00'),
    return_fee: money('0.50'),
    bonus: money('0.00'),
    upsell: money('0.00'),
    total: money('11.50'),
  },
})

const launch = (lang: string | null): Launch => ({ lang, testMode: true, configOverride: null })

/** Every screen, with the choices that let it render, and words of it in English and German. */
const screens: { route: string; flow: Partial<ReturnFlowState>; en: (string | RegExp)[]; de: (string | RegExp)[] }[] = [
  {
    route: '/',
    flow: { order: null },
    en: ['Order number', 'E-mail address', 'Test Mode'],
    de: ['Bestellnummer', 'E-Mail-Adresse', 'Testmodus'],
  },
  {
    route: '/products',
    flow: {},
    en: ['Choose the items to return', 'Choose at least one item to continue.', 'each · Qty 3', 'Items'],
    de: [
      'Wählen Sie die Artikel für die Rücksendung',
      'Wählen Sie mindestens einen Artikel, um fortzufahren.',
      'pro Stück · Menge 3',
      'Artikel',
    ],
  },
  {
    route: '/return-item/tee/return-reason',
    flow: { items },
    en: ['Why are you returning the Classic Tee?', 'Returning 2 units', 'Item 1 of 2'],
    de: ['Warum senden Sie „Classic Tee“ zurück?', '2 Stück zurücksenden', 'Artikel 1 von 2'],
  },
  {
    route: '/return-item/tee/exchange',
    flow: { items },
    en: ['Would you like to exchange the Classic Tee?', 'Refund instead', 'You have: M'],
    de: ['Möchten Sie „Classic Tee“ umtauschen?', 'Stattdessen erstatten', 'Ihre Variante: M'],
  },
  {
    route: '/upsell-offer',
    flow: { items },
    en: ['Exchange for something new?', 'Yes, show me new items'],
    de: ['Gegen etwas Neues tauschen?', 'Ja, neue Artikel zeigen'],
  },
  {
    route: '/upsell-explore',
    flow: { items, upsell: { kind: 'accepted', variantId: null } },
    en: ['Find something new', 'Choose this item', /€12\.65/],
    de: ['Etwas Neues finden', 'Diesen Artikel wählen', /12,65\s€/],
  },
  {
    route: '/refund-method',
    flow: { items, upsell: { kind: 'declined' } },
    en: ['How would you like your refund?', 'Original payment method', /€11\.50/],
    de: ['Wie möchten Sie Ihre Erstattung erhalten?', 'Ursprüngliche Zahlungsart', /11,50\s€/],
  },
  {
    route: '/confirm',
    flow: { items, upsell: { kind: 'declined' }, refundMethod: 'original_payment' },
    en: ['Check and confirm your return', 'Submit return', 'Return fee', 'Quantity 2'],
    de: ['Rücksendung prüfen und bestätigen', 'Rücksendung absenden', 'Rücksendegebühr', 'Menge 2'],
  },
  {
    route: '/return-instruction',
    flow: { items, refundMethod: 'original_payment', submitted: buildSubmittedReturn() },
    en: ['Your return is registered', 'Download shipping label (PDF)', 'Germany'],
    de: ['Ihre Rücksendung ist angemeldet', 'Versandetikett herunterladen (PDF)', 'Deutschland'],
  },
]

beforeEach(() => {
  server.use(
    http.post('*/portal-registration/returns/quote', () => HttpResponse.json(quote)),
    http.get('*/portal-registration/catalogue', () => HttpResponse.json(buildCatalogue())),
    http.get('*/portal-registration/returns/:id/instructions', () => HttpResponse.json(buildInstructions())),
  )
})

describe.each([
  ['en', null],
  ['de', 'de'],
] as const)('the portal’s words in %s', (language, lang) => {
  test.each(screens)('$route', async ({ route, flow, ...words }) => {
    // The start screen takes its language from the URL; later steps from the session.
    const url = route === '/' ? `/?testMode=1${lang ? `&lang=${lang}` : ''}` : route
    renderPortal({ route: url, preloadedState: { returnFlow: buildFlow({ order, launch: launch(lang), ...flow }) } })
    for (const text of words[language])
      expect(
        await screen.findAllByText(text, { exact: typeof text === 'string' ? false : undefined }),
      ).not.toHaveLength(0)
    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', language))
  })
})

test('counts take the language’s plural forms: 1 item, 3 items; 1 Artikel, 3 Artikel', async () => {
  const flow = buildFlow({
    order,
    launch: launch('de-AT'),
    items: [{ lineItemId: 'mug', quantity: 1, reason: null, exchange: null }],
  })
  const { user } = renderPortal({ route: '/products', preloadedState: { returnFlow: flow } })
  expect(await screen.findByText('1 Artikel ausgewählt')).toBeInTheDocument()
  await user.click(screen.getByRole('checkbox', { name: /Classic Tee/ }))
  await user.click(screen.getByRole('button', { name: 'Menge erhöhen' }))
  expect(screen.getByText('3 Artikel ausgewählt')).toBeInTheDocument()
})

test('a language without words of its own shows English, with its configuration variant still asked for', async () => {
  let asked = ''
  server.use(
    http.get(
      '*/portal-registration/config/:id',
      ({ params }) => ((asked = String(params.id)), HttpResponse.json(buildConfig())),
    ),
  )
  renderPortal({ route: '/?lang=pt-BR' })
  expect(await screen.findByRole('textbox', { name: 'Order number' })).toBeInTheDocument()
  expect(asked).toBe('demo-pt-BR')
  expect(document.documentElement).toHaveAttribute('lang', 'en')
})

test('a language the shop has no texts in shows English words throughout, as the configuration says', async () => {
  server.use(
    http.get('*/portal-registration/config/:id', () =>
      HttpResponse.json(buildConfig(), { headers: { 'content-language': 'en' } }),
    ),
  )
  renderPortal({ route: '/?lang=fr' })
  expect(await screen.findByRole('textbox', { name: 'Order number' })).toBeInTheDocument()
  await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'en'))
  expect(screen.queryByRole('textbox', { name: /commande/i })).not.toBeInTheDocument()
})

test('a language the shop has texts in shows the portal’s words in it', async () => {
  server.use(
    http.get('*/portal-registration/config/:id', () =>
      HttpResponse.json(buildConfig(), { headers: { 'content-language': 'fr' } }),
    ),
  )
  renderPortal({ route: '/?lang=fr-CA' })
  expect(await screen.findByRole('textbox', { name: /commande/i })).toBeInTheDocument()
  expect(document.documentElement).toHaveAttribute('lang', 'fr')
})

test.each([
  [null, 'en'],
  ['de', 'de'],
  ['DE-ch', 'de'],
  ['fr-CA', 'fr'],
  ['es', 'es'],
  ['pt-BR', 'en'],
  ['constructor', 'en'],
  ['', 'en'],
] as const)('lang %j shows the words of %j', (lang, expected) => {
  expect(uiLocale(lang)).toBe(expected)
})
