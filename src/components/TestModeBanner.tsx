import { useT } from '../i18n/useT'

/** Shown while the portal runs with testMode=1 (docs/rules.md §5.2); a landmark, like the Preview marker. */
export function TestModeBanner() {
  const t = useT()
  return <aside className="test-mode-banner">{t('shell.testMode')}</aside>
}
