import { T } from '../i18n/useT'

export function PoweredBy() {
  return (
    <footer className="powered-by">
      <T id="shell.poweredBy" components={[<strong />]} />
    </footer>
  )
}
