import { useId, type Ref } from 'react'
import type { ReturnReason } from '../../../contract/api'
import { ErrorMessage } from '../../components/ErrorMessage'
import { useT } from '../../i18n/useT'

interface ReasonGroupProps {
  legend: string
  name: string
  reasons: readonly ReturnReason[]
  chosen: string | null
  error: string | null
  firstRadio: Ref<HTMLInputElement>
  onChoose: (reason: ReturnReason) => void
}

/** One level of the reasons' tree as a radio group: arrow keys move, Space chooses. */
function ReasonGroup({ legend, name, reasons, chosen, error, firstRadio, onChoose }: ReasonGroupProps) {
  const errorId = useId()
  return (
    <fieldset className="choices" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {reasons.map((candidate, index) => (
        <label key={candidate.id} className="choice">
          <input
            ref={index === 0 ? firstRadio : undefined}
            type="radio"
            name={name}
            value={candidate.id}
            checked={candidate.id === chosen}
            aria-invalid={error ? true : undefined}
            onChange={() => onChoose(candidate)}
          />
          <span>{candidate.label}</span>
        </label>
      ))}
      {error ? <ErrorMessage id={errorId}>{error}</ErrorMessage> : null}
    </fieldset>
  )
}

interface ReasonChoicesProps {
  reasons: readonly ReturnReason[]
  /** the reason chosen at each level, from the top: a parent, then one of its sub-reasons */
  path: readonly ReturnReason[]
  /** the level whose group shows the "choose" error, if any */
  errorLevel: number | null
  /** the first radio of each level, for focus on an error */
  firstRadios: Ref<HTMLInputElement>[]
  onChoose: (level: number, reason: ReturnReason) => void
}

/**
 * The shop's reasons, then the sub-reasons of the one chosen, each level a labelled radio group
 * that appears below the last; a polite status says so to screen readers.
 */
export function ReasonChoices({ reasons, path, errorLevel, firstRadios, onChoose }: ReasonChoicesProps) {
  const t = useT()
  const groupName = useId()
  const levels = [reasons, ...path.filter((reason) => reason.children?.length).map((reason) => reason.children!)]
  const parent = path.at(-1)?.children?.length ? path.at(-1)! : null
  return (
    <>
      {levels.map((level, depth) => (
        <ReasonGroup
          key={depth === 0 ? 'top' : path[depth - 1]!.id}
          legend={depth === 0 ? t('reason.legend') : t('reason.subLegend', { reason: path[depth - 1]!.label })}
          name={`${groupName}-${depth}`}
          reasons={level}
          chosen={path[depth]?.id ?? null}
          error={errorLevel === depth ? t(depth === 0 ? 'reason.chooseError' : 'reason.chooseSubError') : null}
          firstRadio={firstRadios[depth] ?? null}
          onChoose={(reason) => onChoose(depth, reason)}
        />
      ))}
      <p className="visually-hidden" role="status">
        {parent ? t('reason.subShown', { count: parent.children!.length, reason: parent.label }) : ''}
      </p>
    </>
  )
}
