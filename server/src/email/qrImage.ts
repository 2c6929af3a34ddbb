/**
 * The drop-off code as a PNG for e-mails (docs/events.md). The QR's modules come from `qrcode`;
 * sharp enlarges and encodes them on libuv's threads, so an e-mail's code costs the thread that
 * answers requests next to nothing (`qrcode`'s own PNG encoder filtered and deflated all 320×320
 * pixels there, about 20 ms a code, while shoppers' submits and the console waited).
 */
import QRCode from 'qrcode'
import sharp from 'sharp'

/** The quiet zone around the code, in modules. */
const MARGIN = 1

/** The PNG of `value`'s QR code (error correction M), square modules, at most `width` pixels wide. */
export async function qrPng(value: string, width = 320): Promise<Buffer> {
  const { modules } = QRCode.create(value, { errorCorrectionLevel: 'M' })
  const side = modules.size + 2 * MARGIN
  const pixels = Buffer.alloc(side * side, 255)
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) pixels[(row + MARGIN) * side + col + MARGIN] = 0
    }
  }
  const scaled = side * Math.max(1, Math.floor(width / side))
  return sharp(pixels, { raw: { width: side, height: side, channels: 1 } })
    .resize(scaled, scaled, { kernel: 'nearest' })
    .png({ compressionLevel: 9 })
    .toBuffer()
}
