import { useEffect, useRef, useState } from 'react'
import { cameraErrorText, cameraScanSupport, scanWithCamera, type CameraScanSupport } from './scanCamera'
import { ErrorAlert } from './ErrorAlert'

const NO_CAMERA: Record<Exclude<CameraScanSupport, 'yes'>, string> = {
  unsupported:
    'Scanning with the camera needs a browser that reads QR codes (Chrome on Android, for one). Type the code, or use a USB scanner: it types the code and Enter for you.',
  insecure:
    'Scanning with the camera needs the back office on https. Type the code, or use a USB scanner: it types the code and Enter for you.',
}

/**
 * "Scan with camera" where the browser can read a QR code, else why not and what works instead.
 * The camera runs only while the view is open: a read, Stop, hiding the page or leaving the
 * screen turns it off.
 */
export function ReceivingCamera({ onCode }: { onCode: (code: string) => void }) {
  const [support, setSupport] = useState<CameraScanSupport | null>(null)
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const video = useRef<HTMLVideoElement>(null)
  const start = useRef<HTMLButtonElement>(null)
  const latestOnCode = useRef(onCode)
  useEffect(() => {
    latestOnCode.current = onCode
  }, [onCode])

  useEffect(() => {
    let live = true
    void cameraScanSupport().then((answer) => {
      if (live) setSupport(answer)
    })
    return () => {
      live = false
    }
  }, [])

  useEffect(() => {
    if (!open || !video.current) return
    const stop = scanWithCamera(
      video.current,
      (code) => {
        setOpen(false)
        latestOnCode.current(code)
      },
      (failure) => {
        setOpen(false)
        setError(cameraErrorText(failure))
      },
    )
    const hidden = () => {
      if (document.hidden) setOpen(false)
    }
    document.addEventListener('visibilitychange', hidden)
    return () => {
      document.removeEventListener('visibilitychange', hidden)
      stop()
    }
  }, [open])

  if (support === null) return null
  if (support !== 'yes') return <p className="receiving-scan__note">{NO_CAMERA[support]}</p>
  return (
    <div className="receiving-camera">
      {open ? (
        <>
          <video
            ref={video}
            className="receiving-camera__video"
            muted
            playsInline
            aria-label="Camera: hold the return’s QR code in the frame"
          />
          <button
            type="button"
            className="button button--secondary button--block"
            onClick={() => {
              setOpen(false)
              // The button that opened it again, so the keyboard is not lost.
              requestAnimationFrame(() => start.current?.focus())
            }}
          >
            Stop camera
          </button>
        </>
      ) : (
        <button
          ref={start}
          type="button"
          className="button button--secondary button--block"
          onClick={() => {
            setError(null)
            setOpen(true)
          }}
        >
          Scan with camera
        </button>
      )}
      <ErrorAlert className="receiving-scan__error" focus={false}>
        {error}
      </ErrorAlert>
    </div>
  )
}
