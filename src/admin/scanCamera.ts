/**
 * Reading a return's QR code with the device's camera: the browser's own BarcodeDetector (the
 * Shape Detection API) on a getUserMedia stream. No library: a WebAssembly decoder would need
 * 'wasm-unsafe-eval' in the back office's Content-Security-Policy, and where the browser has no
 * detector a USB scanner or typing does the same.
 */

/** What BarcodeDetector finds; TypeScript's DOM types do not have the API yet. */
interface DetectedBarcode {
  rawValue: string
}
interface BarcodeDetectorInstance {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>
}
interface BarcodeDetectorConstructor {
  new (options: { formats: string[] }): BarcodeDetectorInstance
  getSupportedFormats(): Promise<string[]>
}

/** yes; no detector or camera API in this browser; or a page not on https, where browsers offer neither. */
export type CameraScanSupport = 'yes' | 'unsupported' | 'insecure'

const detectorClass = () => (globalThis as { BarcodeDetector?: BarcodeDetectorConstructor }).BarcodeDetector

/** Whether this browser can read a QR code from a camera. */
export async function cameraScanSupport(): Promise<CameraScanSupport> {
  const Detector = detectorClass()
  if (Detector && typeof navigator.mediaDevices?.getUserMedia === 'function') {
    // Chrome on Windows and Linux has the class without a platform detector behind it.
    const formats = await Detector.getSupportedFormats().catch(() => [] as string[])
    if (formats.includes('qr_code')) return 'yes'
  }
  return window.isSecureContext === false ? 'insecure' : 'unsupported'
}

/** How often a frame is looked at: often enough to feel at once, seldom enough to spare a phone's battery. */
const FRAME_MS = 150

/**
 * Starts the rear camera in `video` and looks for a QR code in its frames. The first code read
 * stops the camera and goes to `onCode`; a camera that cannot start stops and goes to `onError`.
 * Returns the function that stops it all (leaving the screen, the Stop button).
 */
export function scanWithCamera(
  video: HTMLVideoElement,
  onCode: (code: string) => void,
  onError: (error: unknown) => void,
): () => void {
  let stopped = false
  let stream: MediaStream | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const stop = () => {
    stopped = true
    clearTimeout(timer)
    stream?.getTracks().forEach((track) => track.stop())
    stream = null
    video.srcObject = null
  }
  const Detector = detectorClass()
  if (!Detector) {
    onError(new DOMException('No barcode detector', 'NotSupportedError'))
    return stop
  }
  const detector = new Detector({ formats: ['qr_code'] })
  const look = async () => {
    if (stopped) return
    try {
      const [found] = await detector.detect(video)
      const code = found?.rawValue.trim()
      if (code && !stopped) {
        stop()
        onCode(code)
        return
      }
    } catch {
      // A frame not ready yet (the video is starting): the next one.
    }
    if (!stopped) timer = setTimeout(() => void look(), FRAME_MS)
  }
  navigator.mediaDevices
    .getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
    .then(async (media) => {
      // Stopped while the browser asked for permission: the camera goes off at once.
      if (stopped) return media.getTracks().forEach((track) => track.stop())
      stream = media
      video.srcObject = media
      await video.play()
      void look()
    })
    .catch((error: unknown) => {
      if (stopped) return
      stop()
      onError(error)
    })
  return stop
}

/** Why the camera did not start, in words staff can act on. */
export function cameraErrorText(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'The camera is not allowed. Allow it for this site in the browser, or type the code.'
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No camera was found. Type the code, or use a USB scanner.'
  if (name === 'NotReadableError')
    return 'The camera is in use by another app. Close it and try again, or type the code.'
  return 'The camera could not be started. Type the code, or use a USB scanner.'
}
