import { useT } from '../i18n/useT'

/** Shown while the portal runs with testMode=1 (docs/rules.md §5.2). */
export function TestModeBanner() {
  const t = useT()
  return (
    <div className="test-mode-banner" role="note">
      {t('shell.testMode')}
    </div>
  )
}
