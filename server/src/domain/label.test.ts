import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib'
import { type LabelInput, qrCodeValue, renderLabelPdf, renderQrSvg } from './label'

function buildLabelInput(overrides: Partial<LabelInput> = {}): LabelInput {
  return {
    returnName: '#1001-R1',
    qrValue: 'RB-7F3K9Q2M',
    from: { orderName: '#1001', email: 'jane@example.com', address: null },
    to: {
      name: 'Demo Store Returns',
      line1: '1 Warehouse Way',
      city: 'Berlin',
      postal_code: '10115',
      country_code: 'DE',
    },
    shopName: 'Demo Store',
    items: [{ title: 'Classic Tee', variantTitle: 'White / M', quantity: 1 }],
    createdAt: new Date('2024-05-01T10:00:00Z'),
    ...overrides,
  }
}

/** The first page's content stream, inflated: the drawing operators as text. */
async function pageOperators(bytes: Uint8Array): Promise<string> {
  const page = (await PDFDocument.load(bytes)).getPage(0)
  const contents = page.node.Contents()
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents]
  return streams
    .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
    .map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'))
    .join('\n')
}

/** The strings drawn on the first page, decoded from the hex operands of Tj. */
async function drawnText(bytes: Uint8Array): Promise<string> {
  const source = await pageOperators(bytes)
  // WinAnsi and Latin-1 agree on every character these tests draw.
  return [...source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)]
    .map(([, hex]) => Buffer.from(hex ?? '', 'hex').toString('latin1'))
    .join('\n')
}

describe('renderLabelPdf', () => {
  test('a return renders as a one-page 4x6 in PDF titled with the return name', async () => {
    const bytes = await renderLabelPdf(buildLabelInput())

    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
    const doc = await PDFDocument.load(bytes)
    expect(doc.getPageCount()).toBe(1)
    expect(doc.getPage(0).getSize()).toEqual({ width: 288, height: 432 })
    expect(doc.getTitle()).toBe('Return label #1001-R1')
  })

  test('the label shows the return name, both addresses, the code and the items', async () => {
    const text = await drawnText(await renderLabelPdf(buildLabelInput()))

    const expected = [
      ...['RETURN', '#1001-R1', 'Demo Store Returns', '1 Warehouse Way', '10115 Berlin', 'DE'],
      ...['#1001', 'jane@example.com', 'RB-7F3K9Q2M', '1 × Classic Tee · White / M'],
    ]
    for (const line of expected) expect(text).toContain(line)
  })

  test('the sender is the order’s shipping address, each address written as its country writes it', async () => {
    const text = await drawnText(
      await renderLabelPdf(
        buildLabelInput({
          from: {
            orderName: 'AC1001',
            email: 'ada@example.com',
            address: {
              name: 'Ada Lovelace',
              line1: '742 Evergreen Terrace',
              city: 'Springfield',
              region: 'IL',
              postal_code: '62704',
              country_code: 'US',
            },
          },
          to: {
            name: 'ACME Returns Center',
            line1: '1 Road Runner Way',
            line2: 'Dock 7',
            city: 'Phoenix',
            region: 'AZ',
            postal_code: '85001',
            country_code: 'US',
          },
        }),
      ),
    )
    for (const line of [
      'Ada Lovelace',
      '742 Evergreen Terrace',
      'Springfield, IL 62704, US',
      'AC1001 · ada@example.com',
    ])
      expect(text).toContain(line)
    for (const line of ['ACME Returns Center', '1 Road Runner Way', 'Dock 7', 'Phoenix, AZ 85001', 'US'])
      expect(text).toContain(line)
    // The German return address of the default input: postcode before the town.
    expect(await drawnText(await renderLabelPdf(buildLabelInput()))).toContain('10115 Berlin')
  })

  test('the QR code is drawn as vector rectangles, with no raster image', async () => {
    const operators = await pageOperators(await renderLabelPdf(buildLabelInput()))

    expect(operators).not.toMatch(/\bDo\b|\bBI\b/) // no image XObject, no inline image
    expect(operators.match(/^f$/gm)?.length).toBeGreaterThan(50) // filled module rectangles
  })

  test('the same input renders to the same bytes, so a re-rendered label matches the cached one', async () => {
    const input = buildLabelInput()

    expect(Buffer.from(await renderLabelPdf(input))).toEqual(Buffer.from(await renderLabelPdf(input)))
  })

  test('text Helvetica cannot encode becomes "?" instead of failing the render', async () => {
    const input = buildLabelInput({
      from: {
        orderName: '#1001',
        email: 'zoe@example.jp',
        address: {
          name: 'Zoë 東京 🚚',
          line1: '1-1 Chiyoda',
          city: 'Tokyo',
          postal_code: '100-0001',
          country_code: 'JP',
        },
      },
      to: { name: 'Lager Nord ❤️', line1: 'Hafenstraße 12', city: 'Hamburg', postal_code: '20457', country_code: 'de' },
    })

    const text = await drawnText(await renderLabelPdf(input))

    expect(text).toContain('Zoë ?? ?')
    expect(text).toContain('Lager Nord ?')
    expect(text).toContain('Hafenstraße 12')
    expect(text).toContain('DE')
  })

  test('a long items list is cut short with "+N more"', async () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ title: `Item ${i + 1}`, variantTitle: null, quantity: 1 }))

    const text = await drawnText(await renderLabelPdf(buildLabelInput({ items })))

    expect(text).toContain('1 × Item 10')
    expect(text).not.toContain('1 × Item 11')
    expect(text).toContain('+15 more')
  })

  test('a long address line is shortened with an ellipsis rather than running off the label', async () => {
    const line1 = 'Very Long Industrial Estate Road Name Building C Loading Dock 14'

    const text = await drawnText(await renderLabelPdf(buildLabelInput({ to: { ...buildLabelInput().to, line1 } })))

    expect(text).toContain('Very Long Industrial')
    expect(text).not.toContain(line1)
    expect(text).toContain('\x85') // the ellipsis in WinAnsi
  })
})

describe('renderQrSvg', () => {
  test('the drop-off code renders as a standalone SVG document', async () => {
    const svg = await renderQrSvg('RB-7F3K9Q2M')

    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"')
    expect(svg).toMatch(/viewBox="0 0 \d+ \d+"/)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
  })
})

describe('qrCodeValue', () => {
  const id = '3f1c2b9e-8d4a-4c1e-9b7a-2e5d6f8a9c01'

  test('the same return id always gives the same code', () => {
    expect(qrCodeValue(id)).toBe(qrCodeValue(id))
    expect(qrCodeValue(id.toUpperCase())).toBe(qrCodeValue(id))
  })

  test.each([id, '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'])(
    'the code for %s is "RB-" and 8 Crockford base32 characters',
    (returnId) => {
      expect(qrCodeValue(returnId)).toMatch(/^RB-[0-9A-HJKMNP-TV-Z]{8}$/)
    },
  )

  test('different return ids give different codes', () => {
    const codes = new Set(
      Array.from({ length: 200 }, (_, i) => qrCodeValue(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)),
    )

    expect(codes.size).toBe(200)
  })
})
