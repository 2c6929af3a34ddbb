import { useT } from '../i18n/useT'

/**
 * Shown while a `config` override restyles the portal (docs/rules.md §15.2); `unread` when nothing
 * of it could be used (not base64 JSON, no valid field): the shop's own configuration shows.
 */
export function PreviewMarker({ unread }: { unread: boolean }) {
  const t = useT()
  const note = unread ? t('shell.previewUnread') : t('shell.previewNote')
  return (
    <div className="preview-marker" role="note" aria-label={`${t('shell.preview')}: ${note}`}>
      <strong>{t('shell.preview')}</strong>
      <span className="preview-marker__note" aria-hidden="true">
        {' · '}
        {note}
      </span>
    </div>
  )
}
