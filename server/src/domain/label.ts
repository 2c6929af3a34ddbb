import { createHash } from 'node:crypto'
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts, rgb } from 'pdf-lib'
import * as QRCode from 'qrcode'
import type { Address } from '../../../contract/api'
import { addressLines } from './addressLines'

/** What a return label shows; the addresses are printed as given, minus characters Helvetica lacks. */
export interface LabelInput {
  /** e.g. "#1001-R1" */
  returnName: string
  /** the drop-off code, e.g. "RB-7F3K9Q2M" */
  qrValue: string
  /** the shopper: the order's shipping address when it has one, else its name and e-mail */
  from: { orderName: string; email: string; address: Address | null }
  to: Address
  shopName: string
  items: { title: string; variantTitle: string | null; quantity: number }[]
  createdAt: Date
}

// 4x6 in, the size thermal label printers and carrier drop-off points expect.
const PAGE_W = 288
const PAGE_H = 432
const MARGIN = 18
const CONTENT_W = PAGE_W - 2 * MARGIN
const QR_SIZE = 108
const ITEM_LEADING = 12
const INK = rgb(0.07, 0.07, 0.07)
const MUTED = rgb(0.42, 0.45, 0.5)
const WHITE = rgb(1, 1, 1)

// Crockford's alphabet drops I, L, O and U, so a code read aloud or typed at a counter cannot be misread.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

interface Pen {
  page: PDFPage
  regular: PDFFont
  bold: PDFFont
  charset: ReadonlySet<number>
}

interface TextOptions {
  x: number
  y: number
  size: number
  bold?: boolean
  color?: ReturnType<typeof rgb>
  maxWidth?: number
  align?: 'left' | 'right' | 'center'
}

/** Renders the 4x6 in return label: addresses, drop-off QR code and the items being sent back. */
export async function renderLabelPdf(input: LabelInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([PAGE_W, PAGE_H])
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const pen: Pen = { page, regular, bold, charset: new Set(regular.getCharacterSet()) }

  drawHeader(pen, input)
  drawAddresses(pen, input)
  drawQr(page, input.qrValue, MARGIN, 198)
  text(pen, input.qrValue, {
    x: MARGIN + QR_SIZE / 2,
    y: 70,
    size: 13,
    bold: true,
    align: 'center',
    maxWidth: QR_SIZE + 8,
  })
  text(pen, 'Show this code at drop-off', { x: MARGIN + QR_SIZE / 2, y: 59, size: 7, color: MUTED, align: 'center' })
  drawItems(pen, input.items, MARGIN + QR_SIZE + 16, 193)
  drawFooter(pen, input.createdAt)

  doc.setTitle(`Return label ${input.returnName}`)
  doc.setSubject(`Return for ${input.shopName}`)
  doc.setCreator('Rebound')
  doc.setProducer('Rebound')
  // Fixed dates keep the bytes identical for the same return, so cached and re-rendered labels match.
  doc.setCreationDate(input.createdAt)
  doc.setModificationDate(input.createdAt)
  // A classic xref table instead of object streams: some printer drivers and older readers choke on PDF 1.5 features.
  return doc.save({ useObjectStreams: false })
}

/** Renders the drop-off code as a standalone SVG document. */
export async function renderQrSvg(value: string): Promise<string> {
  const svg = await QRCode.toString(value, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' })
  return svg.trim()
}

/**
 * Derives the short drop-off code of a return from its id.
 * @example qrCodeValue('3f1c2b9e-8d4a-4c1e-9b7a-2e5d6f8a9c01') // 'RB-DY1MDQ2X'
 */
export function qrCodeValue(returnId: string): string {
  // UUIDs are case-insensitive; the same return must always get the same code.
  const digest = createHash('sha256').update(returnId.trim().toLowerCase()).digest()
  let n = digest.readUIntBE(0, 5) // 40 bits, exactly 8 base32 digits
  let code = ''
  for (let i = 0; i < 8; i++) {
    code = CROCKFORD[n % 32] + code
    n = Math.floor(n / 32)
  }
  return `RB-${code}`
}

function drawHeader(pen: Pen, input: LabelInput): void {
  pen.page.drawRectangle({ x: 0, y: PAGE_H - 48, width: PAGE_W, height: 48, color: INK })
  text(pen, 'RETURN', { x: MARGIN, y: PAGE_H - 33, size: 24, bold: true, color: WHITE })
  const right = { x: PAGE_W - MARGIN, align: 'right', maxWidth: 140 } as const
  text(pen, input.returnName, { ...right, y: PAGE_H - 22, size: 12, bold: true, color: WHITE })
  text(pen, input.shopName, { ...right, y: PAGE_H - 36, size: 8, color: rgb(0.8, 0.82, 0.85) })
}

function drawAddresses(pen: Pen, { from, to }: LabelInput): void {
  text(pen, 'FROM', { x: MARGIN, y: 372, size: 7, bold: true, color: MUTED })
  if (from.address) {
    // The name, then the address as its country writes it on two lines, leaving SHIP TO its room.
    const [first = '', ...rest] = [...addressLines(from.address), from.address.country_code.toUpperCase()]
    text(pen, from.address.name, { x: MARGIN, y: 361, size: 9, bold: true })
    text(pen, first, { x: MARGIN, y: 350, size: 8 })
    text(pen, rest.join(', '), { x: MARGIN, y: 340, size: 8 })
    text(pen, `${from.orderName} · ${from.email}`, { x: MARGIN, y: 329, size: 7, color: MUTED })
  } else {
    text(pen, from.orderName, { x: MARGIN, y: 357, size: 10, bold: true })
    text(pen, from.email, { x: MARGIN, y: 344, size: 9 })
  }

  rule(pen.page, 322, 2)
  text(pen, 'SHIP TO', { x: MARGIN, y: 311, size: 7, bold: true, color: MUTED })
  text(pen, to.name, { x: MARGIN, y: 296, size: 15, bold: true })
  // Street, town and postcode as the country writes them (US "Phoenix, AZ 85001"), then the country.
  const lines = [...addressLines(to), to.country_code.toUpperCase()].filter((line) => line.trim()).slice(0, 5)
  lines.forEach((line, i) => text(pen, line, { x: MARGIN, y: 280 - i * 14.5, size: 12 }))
  rule(pen.page, 212, 2)
}

// Vector modules rather than an image, so the code stays sharp on 203 dpi thermal printers.
function drawQr(page: PDFPage, value: string, x: number, top: number): void {
  const { modules } = QRCode.create(value, { errorCorrectionLevel: 'M' })
  const cell = QR_SIZE / modules.size
  for (let row = 0; row < modules.size; row++) {
    // One rectangle per run of dark modules keeps the content stream small.
    let col = 0
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++
        continue
      }
      const start = col
      while (col < modules.size && modules.get(row, col)) col++
      page.drawRectangle({
        x: x + start * cell,
        y: top - (row + 1) * cell,
        width: (col - start) * cell,
        height: cell,
        color: INK,
      })
    }
  }
}

function drawItems(pen: Pen, items: LabelInput['items'], x: number, top: number): void {
  const maxWidth = PAGE_W - MARGIN - x
  text(pen, 'ITEMS', { x, y: top, size: 7, bold: true, color: MUTED })
  const maxLines = 11
  const shown = items.length > maxLines ? items.slice(0, maxLines - 1) : items
  shown.forEach((item, i) => {
    const variant = item.variantTitle ? ` · ${item.variantTitle}` : ''
    text(pen, `${item.quantity} × ${item.title}${variant}`, { x, y: top - 13 - i * ITEM_LEADING, size: 8.5, maxWidth })
  })
  if (shown.length < items.length) {
    const y = top - 13 - shown.length * ITEM_LEADING
    text(pen, `+${items.length - shown.length} more`, { x, y, size: 8.5, bold: true, color: MUTED })
  }
}

function drawFooter(pen: Pen, createdAt: Date): void {
  rule(pen.page, 40, 0.5)
  text(pen, `Created ${createdAt.toISOString().slice(0, 10)}`, { x: MARGIN, y: 26, size: 7, color: MUTED })
  text(pen, 'Pack securely and attach this label', { x: PAGE_W - MARGIN, y: 26, size: 7, color: MUTED, align: 'right' })
}

function rule(page: PDFPage, y: number, thickness: number): void {
  page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE_W - MARGIN, y }, thickness, color: INK })
}

function text(
  pen: Pen,
  value: string,
  { x, y, size, bold, color = INK, maxWidth = CONTENT_W, align = 'left' }: TextOptions,
): void {
  const font = bold ? pen.bold : pen.regular
  const fitted = fit(winAnsiSafe(value, pen.charset), font, size, maxWidth)
  const width = font.widthOfTextAtSize(fitted, size)
  const left = align === 'right' ? x - width : align === 'center' ? x - width / 2 : x
  pen.page.drawText(fitted, { x: left, y, size, font, color })
}

// The standard fonts only encode WinAnsi; anything else would make pdf-lib throw mid-render.
function winAnsiSafe(value: string, charset: ReadonlySet<number>): string {
  return Array.from(
    value
      .normalize('NFC')
      .replace(/\s+/g, ' ')
      // Variation selectors and joiners are invisible parts of emoji; one "?" per emoji is enough.
      .replace(/[\uFE00-\uFE0F\u200D]/g, ''),
    (char) => (charset.has(char.codePointAt(0) ?? 0) ? char : '?'),
  ).join('')
}

function fit(value: string, font: PDFFont, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(value, size) <= maxWidth) return value
  let cut = value
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}…`, size) > maxWidth) cut = cut.slice(0, -1)
  return `${cut.trimEnd()}…`
}
