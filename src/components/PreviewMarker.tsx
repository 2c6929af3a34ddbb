import { useT } from '../i18n/useT'

/** Shown while a `config` override restyles the portal (docs/rules.md §15.2). */
export function PreviewMarker() {
  const t = useT()
  return (
    <div className="preview-marker" role="note" aria-label={t('shell.previewLabel')}>
      <strong>{t('shell.preview')}</strong>
      <span className="preview-marker__note" aria-hidden="true">
        {' · '}
        {t('shell.previewNote')}
      </span>
    </div>
  )
}
