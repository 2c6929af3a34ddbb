import { useT } from '../i18n/useT'

/**
 * Shown while a `config` override restyles the portal (docs/rules.md §15.2); `unread` when nothing
 * of it could be used (not base64 JSON, no valid field): the shop's own configuration shows. A
 * landmark of its own, so nothing of the page is outside one (axe "region").
 */
export function PreviewMarker({ unread }: { unread: boolean }) {
  const t = useT()
  const preview = t('shell.preview')
  return (
    <aside className="preview-marker" aria-label={preview}>
      <strong>{preview}</strong> · {t(unread ? 'shell.previewUnread' : 'shell.previewNote')}
    </aside>
  )
}
