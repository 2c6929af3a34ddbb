import QRCode from 'qrcode'
import sharp from 'sharp'
import { qrPng } from './qrImage'

describe('qrPng', () => {
  it('draws every module of the code, dark or light, in square cells with a quiet zone', async () => {
    const value = 'RB-DEMO1001-R1|7Q2XK9'
    const png = await qrPng(value)
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
    const { modules } = QRCode.create(value, { errorCorrectionLevel: 'M' })
    const side = modules.size + 2
    expect(info.width).toBe(info.height)
    expect(info.width).toBeLessThanOrEqual(320)
    expect(info.width % side).toBe(0)
    const cell = info.width / side
    const at = (row: number, col: number) =>
      data[Math.floor((row + 0.5) * cell) * info.width + Math.floor((col + 0.5) * cell)]
    for (let row = 0; row < side; row++) {
      for (let col = 0; col < side; col++) {
        const inside = row > 0 && col > 0 && row <= modules.size && col <= modules.size
        const dark = inside && Boolean(modules.get(row - 1, col - 1))
        expect([row, col, at(row, col)]).toEqual([row, col, dark ? 0 : 255])
      }
    }
  })
})
