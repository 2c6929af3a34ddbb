import type { RefundDeduction, ReturnReview, ReturnStatus } from '../../contract/api'
import { itemStates } from '../../contract/constants'
import type { EmailKind } from '../src/domain/events'
import { settingsInMinor } from '../src/domain/shopMoney'
import { renderEmail } from '../src/email/renderEmail'
import type { EmailPayload } from '../src/storage/outbox'
import type { ShopRecord } from '../src/storage/shops'
import { buildShop } from './builders'

/**
 * The shopper's e-mails of the review and the inspection (docs/events.md, docs/lifecycle.md),
 * rendered as the delivery loop renders them: words, links, the label only where it belongs.
 */

const ORIGIN = 'http://north.localhost:8080'
const SECRET = Buffer.from('test-secret')

function buildShopRecord(): ShopRecord {
  const file = buildShop({ shop: 'north', config: { document_title_text: 'North Store' } })
  return {
    id: file.shop,
    currency_code: file.currency_code,
    settings: settingsInMinor(file.settings, file.currency_code),
    config: file.config,
    // Texts of its own in each language: e-mails in a language the shop has none in are English (decision 0063).
    config_variants: {
      de: { need_help_message: 'Hilfe?' },
      fr: { need_help_message: 'Aide ?' },
      es: { need_help_message: '¿Ayuda?' },
    },
    return_reasons: file.return_reasons,
    return_reason_variants: {},
    return_address: file.return_address,
    catalogue: file.catalogue,
    email: null,
    policy: {},
    review_over_minor: null,
  }
}

const LABEL = {
  label_url: '/portal-registration/returns/r1/label.pdf?expires=1&signature=s',
  qr_svg: '<svg/>',
  qr_code_value: 'RB-7K2M9Q',
}

function buildStatus(
  options: { review?: ReturnReview; label?: boolean; deductions?: RefundDeduction[] } = {},
): ReturnStatus {
  const eur = (amount: string) => ({ amount, currency_code: 'EUR' })
  return {
    return_id: 'r1',
    return_name: '#1001-R1',
    created_at: '2026-11-20T12:00:00.000Z',
    items: [
      {
        line_item_id: 'li-mug',
        title: 'Ceramic Mug',
        variant_title: null,
        quantity: 1,
        image_src: null,
        exchange_variant_title: null,
        keep: false,
        states: [...itemStates(false)],
        state: options.deductions ? 'refunded' : 'requested',
        history: [],
      },
    ],
    refund: {
      method: 'original_payment',
      amount: eur(options.deductions ? '12.50' : '25.00'),
      ...(options.deductions ? { deductions: options.deductions, before_deductions: eur('25.00') } : {}),
      timing: null,
      expected: null,
    },
    label: options.label ? LABEL : null,
    address: { name: 'Returns', line1: 'Street 1', city: 'Town', postal_code: '1', country_code: 'DE', lines: [] },
    ...(options.review ? { review: options.review } : {}),
  }
}

const pending: ReturnReview = { state: 'pending', answer_by: '2026-11-24' }
const approved: ReturnReview = { state: 'approved', decided_at: '2026-11-21T09:00:00.000Z' }
const rejected = (reason: string): ReturnReview => ({
  state: 'rejected',
  reason,
  decided_at: '2026-11-21T09:00:00.000Z',
})

function render(kind: EmailKind, status: ReturnStatus, language = 'en') {
  const payload: EmailPayload = {
    kind,
    line_item_ids: status.items.map((item) => item.line_item_id),
    language,
    origin: ORIGIN,
    order_name: '#1001',
    status,
  }
  return renderEmail(buildShopRecord(), 'jane@example.com', payload, SECRET)
}

const links = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!)

/** What only the label's block says, in English. */
const LABEL_WORDS = ['Print your label', 'Pack the items', 'drop-off point', 'Send these items back', 'RB-7K2M9Q']

describe('the created e-mail of a return waiting for review', () => {
  test.each([
    ['with no label, as the status has it', false],
    ['even were a label on the status', true],
  ])('%s: when the shop answers, nothing to send, no label', async (_name, label) => {
    const email = await render('created', buildStatus({ review: pending, label }))
    expect(email.subject).toBe('We received your return request #1001-R1')
    expect(email.text).toContain(
      'We received your return request. The shop reviews it and answers by November 24, 2026. Please do not send anything yet.',
    )
    expect(email.text).toContain('Ceramic Mug')
    for (const words of LABEL_WORDS) {
      expect(email.html).not.toContain(words)
      expect(email.text).not.toContain(words)
    }
    expect(links(email.html).filter((link) => link.includes('label.pdf'))).toEqual([])
    expect(links(email.html)).toEqual([expect.stringMatching(new RegExp(`^${ORIGIN}/status/r1#`))])
    expect(email.attachments).toEqual([])
  })

  test.each([
    ['de', 'Ihre Rücksendeanfrage #1001-R1 ist eingegangen', 'antwortet bis zum 24. November 2026'],
    ['fr', 'Nous avons reçu votre demande de retour #1001-R1', 'vous répondra d’ici le 24 novembre 2026'],
    [
      'es',
      'Hemos recibido tu solicitud de devolución #1001-R1',
      'te responderá a más tardar el 24 de noviembre de 2026',
    ],
  ])('in %s: its subject, and the day in the shopper’s language', async (language, subject, answer) => {
    const email = await render('created', buildStatus({ review: pending }), language)
    expect(email.subject).toBe(subject)
    expect(email.text).toContain(answer)
  })

  test('a return never flagged still gets the registered e-mail with its label', async () => {
    const email = await render('created', buildStatus({ label: true }))
    expect(email.subject).toBe('Your return #1001-R1 is registered')
    expect(email.text).toContain('Print your label')
    expect(email.attachments).toHaveLength(1)
  })
})

describe('the approved e-mail', () => {
  test('says it was accepted and how to send it: the label link, the drop-off code, the status link', async () => {
    const email = await render('approved', buildStatus({ review: approved, label: true }))
    expect(email.subject).toBe('Your return #1001-R1 is approved')
    expect(email.text).toContain('Good news: the shop accepted your return #1001-R1 for order #1001.')
    expect(email.text).toContain('Print your label')
    expect(email.text).toContain('Or show this code at the drop-off point: RB-7K2M9Q')
    expect(email.text).toContain('Follow your return')
    const hrefs = links(email.html)
    expect(hrefs).toContain(`${ORIGIN}${LABEL.label_url.replaceAll('&', '&amp;')}`)
    expect(hrefs.some((link) => link.startsWith(`${ORIGIN}/status/r1#`))).toBe(true)
    expect(email.html).toContain('src="cid:dropoff-code@rebound"')
    expect(email.attachments.map((part) => [part.contentType, part.cid])).toEqual([
      ['image/png', 'dropoff-code@rebound'],
    ])
  })
})

describe('the rejected e-mail', () => {
  test('gives the shop’s reason escaped, nothing to send, the status link, whom to ask; no label', async () => {
    const reason = 'Worn <script>alert("x")</script> & washed'
    const email = await render('rejected', buildStatus({ review: rejected(reason) }))
    expect(email.subject).toBe('Your return #1001-R1 was not accepted')
    expect(email.html).not.toContain('<script>')
    expect(email.html).toContain('Worn &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; washed')
    expect(email.text).toContain(reason)
    expect(email.text).toContain('You do not need to send anything back.')
    expect(email.text).toContain('If you have questions, please contact North Store.')
    expect(links(email.html)).toEqual([expect.stringMatching(new RegExp(`^${ORIGIN}/status/r1#`))])
    for (const words of LABEL_WORDS) expect(email.text).not.toContain(words)
    expect(email.attachments).toEqual([])
  })
})

describe('subjects of the review’s answer in every language', () => {
  test.each([
    ['en', 'Your return #1001-R1 is approved', 'Your return #1001-R1 was not accepted'],
    ['de', 'Ihre Rücksendung #1001-R1 ist genehmigt', 'Ihre Rücksendung #1001-R1 wurde nicht angenommen'],
    ['fr', 'Votre retour #1001-R1 est accepté', 'Votre retour #1001-R1 n’a pas été accepté'],
    ['es', 'Tu devolución #1001-R1 está aprobada', 'Tu devolución #1001-R1 no ha sido aceptada'],
  ])('%s', async (language, approvedSubject, rejectedSubject) => {
    expect((await render('approved', buildStatus({ review: approved, label: true }), language)).subject).toBe(
      approvedSubject,
    )
    expect((await render('rejected', buildStatus({ review: rejected('Worn') }), language)).subject).toBe(
      rejectedSubject,
    )
  })
})

describe('the refunded e-mail with an inspection’s deductions', () => {
  const deductions: RefundDeduction[] = [
    {
      line_item_id: 'li-mug',
      title: 'Ceramic Mug',
      condition: 'damaged',
      percent: 50,
      amount: { amount: '12.50', currency_code: 'EUR' },
    },
  ]
  test.each([
    ['en', ['Condition: damaged', '50% deducted: €12.50', 'Refund before deductions: €25.00', 'Your refund: €12.50']],
    [
      'de',
      ['Zustand: beschädigt', '50 % abgezogen: 12,50 €', 'Erstattung vor Abzügen: 25,00 €', 'Ihre Erstattung: 12,50 €'],
    ],
    ['fr', ['État : endommagé', '50 % déduits : 12,50 €', 'Remboursement avant déductions : 25,00 €']],
    ['es', ['Estado: dañado', '50 % deducido: 12,50 €', 'Reembolso antes de deducciones: 25,00 €']],
  ])('in %s: each item’s condition, percent and amount, the refund before and after', async (language, words) => {
    const email = await render('refunded', buildStatus({ deductions }), language)
    // Intl separates numbers and units with no-break spaces; plain ones read the same.
    const text = email.text.replace(/[\u00a0\u202f]/g, ' ')
    expect(text).toContain('Ceramic Mug')
    for (const word of words) expect(text).toContain(word)
  })

  test('without deductions, none are listed', async () => {
    const email = await render('refunded', buildStatus())
    expect(email.text).toContain('€25.00 to your original payment method')
    expect(email.text).not.toContain('Deducted after inspection')
    expect(email.text).not.toContain('Refund before deductions')
  })
})
