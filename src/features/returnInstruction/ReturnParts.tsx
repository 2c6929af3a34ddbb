import { Link } from 'react-router-dom'
import type { ReturnInstructionsAnswer } from '../../../contract/api'
import { paths } from '../../../contract/paths'
import { useAppSelector } from '../../app/hooks'
import { CopyLink } from '../../components/CopyLink'
import { T } from '../../i18n/T'
import { useT } from '../../i18n/useT'
import { selectLaunch } from '../returnFlow/returnFlowSlice'

/** The status page of this return, and its link to keep (in the session's language). */
export function FollowReturn({
  instructions,
}: {
  instructions: Pick<ReturnInstructionsAnswer, 'return_id' | 'status_token'>
}) {
  const t = useT()
  const { lang } = useAppSelector(selectLaunch)
  const path = paths.status.build(instructions.return_id, instructions.status_token, lang)
  return (
    <section className="instructions__section instructions__follow" aria-labelledby="instructions-follow">
      <h2 id="instructions-follow" className="instructions__heading">
        {t('instructions.follow')}
      </h2>
      <p className="muted instructions__follow-intro">{t('instructions.followIntro')}</p>
      <CopyLink url={`${window.location.origin}${path}`} label={t('status.linkLabel')} />
      <Link className="button button--secondary instructions__follow-open" to={path}>
        {t('instructions.followOpen')}
      </Link>
    </section>
  )
}

/**
 * "Return number #1001-R1", the number in bold: at the top of every outcome of this step. A
 * success panel, or a plain one (`neutral`) for a return that is not under way (under review).
 */
export function ReturnNumber({ name, neutral = false }: { name: string; neutral?: boolean }) {
  return (
    <p className={`instructions__number${neutral ? ' instructions__number--neutral' : ''}`}>
      <T id="instructions.number" values={{ name }} components={[<strong />]} />
    </p>
  )
}
