import { useId, useRef, useState } from 'react'
import { useT } from '../i18n/useT'
import './CopyLink.css'

/**
 * A link the shopper keeps: shown whole in a read-only field (selectable by hand) with a copy button
 * whose outcome is announced.
 */
export function CopyLink({ url, label }: { url: string; label: string }) {
  const t = useT()
  const id = useId()
  const field = useRef<HTMLTextAreaElement>(null)
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)

  async function copy() {
    try {
      await navigator.clipboard.writeText(url)
      setCopied('yes')
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is selected instead.
      field.current?.select()
      setCopied('no')
    }
  }

  return (
    <div className="copy-link">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-link__row">
        {/* A text area, not an input: the whole link shows, wrapped, rather than its first half. */}
        <textarea
          ref={field}
          id={id}
          className="field__input copy-link__input"
          readOnly
          rows={3}
          spellCheck={false}
          value={url}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button button--secondary copy-link__button" onClick={() => void copy()}>
          {t('status.copy')}
        </button>
      </div>
      <p className="muted copy-link__outcome" aria-live="polite">
        {copied === 'yes' ? t('status.copied') : copied === 'no' ? t('status.copyFailed') : ''}
      </p>
    </div>
  )
}
