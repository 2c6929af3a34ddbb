import { useT } from '../i18n/useT'

export function PoweredBy() {
  const t = useT()
  return <footer className="powered-by">{t('shell.poweredBy')}</footer>
}
