import { waitFor } from '@testing-library/react'
import { cameraErrorText, cameraScanSupport, scanWithCamera } from './scanCamera'

test.each([
  ['NotAllowedError', 'The camera is not allowed. Allow it for this site in the browser, or type the code.'],
  ['NotFoundError', 'No camera was found. Type the code, or use a USB scanner.'],
  ['NotReadableError', 'The camera is in use by another app. Close it and try again, or type the code.'],
  ['TypeError', 'The camera could not be started. Type the code, or use a USB scanner.'],
])('cameraErrorText: %s', (name, text) => {
  expect(cameraErrorText(new DOMException('', name))).toBe(text)
})

describe('with BarcodeDetector', () => {
  let formats: string[]
  let found: { rawValue: string }[]
  let looks: number
  const stopTrack = jest.fn()
  let grant: (stream: unknown) => void
  beforeEach(() => {
    formats = ['qr_code']
    found = []
    looks = 0
    stopTrack.mockReset()
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    Object.assign(globalThis, {
      BarcodeDetector: class {
        static getSupportedFormats(): Promise<string[]> {
          return Promise.resolve(formats)
        }
        detect(): Promise<{ rawValue: string }[]> {
          looks += 1
          return Promise.resolve(found)
        }
      },
    })
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: () => new Promise((resolve) => (grant = resolve)) },
    })
  })
  afterEach(() => {
    delete (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector
    delete (navigator as { mediaDevices?: unknown }).mediaDevices
    jest.restoreAllMocks()
  })
  const stream = { getTracks: () => [{ stop: stopTrack }] }

  test('cameraScanSupport: yes only where the detector reads QR codes', async () => {
    expect(await cameraScanSupport()).toBe('yes')
    formats = []
    expect(await cameraScanSupport()).not.toBe('yes')
  })

  test('scanWithCamera: stopped while the browser asks for permission, the camera goes off as soon as it starts', async () => {
    const onCode = jest.fn()
    const stop = scanWithCamera(document.createElement('video'), onCode, jest.fn())
    stop()
    grant(stream)
    await waitFor(() => expect(stopTrack).toHaveBeenCalled())
    expect(onCode).not.toHaveBeenCalled()
  })

  test('scanWithCamera: looks at frames until a code shows, then stops the camera and gives the code once', async () => {
    const onCode = jest.fn()
    scanWithCamera(document.createElement('video'), onCode, jest.fn())
    grant(stream)
    // Several frames looked at, none with a code: nothing is given yet.
    await waitFor(() => expect(looks).toBeGreaterThanOrEqual(3))
    expect(onCode).not.toHaveBeenCalled()
    found = [{ rawValue: 'RB-7F3K9Q2M\n' }]
    await waitFor(() => expect(onCode).toHaveBeenCalled())
    expect(onCode.mock.calls).toEqual([['RB-7F3K9Q2M']])
    expect(stopTrack).toHaveBeenCalledTimes(1)
  })
})

test('cameraScanSupport: no detector, no camera scanning', async () => {
  expect(await cameraScanSupport()).not.toBe('yes')
})
