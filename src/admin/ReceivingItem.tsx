import { useId, type Dispatch } from 'react'
import type { ReturnOrder, ReturnStatusItem } from '../../contract/api'
import type { Inspection } from '../../contract/staff'
import { StateBadge } from './format'
import {
  CONDITION_LABELS,
  DISPOSITION_LABELS,
  RadioChoices,
  type ChoiceEvent,
  type ItemChoice,
  type UnitChoice,
} from './ReceivingChoices'
import { ReceivingPhotos } from './ReceivingPhotos'

type OrderItem = ReturnOrder['items'][number]

/** "Linen Shirt · M" */
export const itemTitle = (item: ReturnStatusItem) =>
  item.variant_title ? `${item.title} · ${item.variant_title}` : item.title

/** Whether the warehouse inspects this item now: sent back, not refunded, not inspected yet. */
export const inspectable = (item: ReturnStatusItem, inspected: ReadonlySet<string>) =>
  !item.keep && item.state !== 'refunded' && !inspected.has(item.line_item_id)

/** One item to inspect: what the shopper said, then condition, disposition, a note and photos. */
export function InspectItem({
  returnId,
  item,
  answer,
  choice,
  dispatch,
}: {
  returnId: string
  item: ReturnStatusItem
  answer: OrderItem | undefined
  choice: ItemChoice
  dispatch: Dispatch<ChoiceEvent>
}) {
  const base = useId()
  const title = itemTitle(item)
  const id = item.line_item_id
  return (
    <fieldset className="console-card receiving-item">
      <legend className="receiving-item__legend">{title}</legend>
      <div className="receiving-item__about">
        {item.image_src ? <img src={item.image_src} alt="" width={56} height={56} /> : null}
        <div className="receiving-item__said">
          <p>
            {item.quantity > 1 ? `${item.quantity} units · ` : ''}
            <StateBadge state={item.state} />
          </p>
          {answer ? (
            <p>
              Reason: <strong>{answer.reason_label}</strong>
            </p>
          ) : null}
          {answer?.comment ? <blockquote className="console-item__comment">{answer.comment}</blockquote> : null}
          {item.exchange_variant_title ? <p>Exchanged for {item.exchange_variant_title}</p> : null}
        </div>
      </div>
      {choice.condition === null ? (
        <p className="muted">Not inspected now: choose its condition to inspect it with the others.</p>
      ) : (
        <button
          type="button"
          className="link-button receiving-item__later"
          onClick={() => dispatch({ type: 'leftForLater', item: id })}
        >
          Leave for later<span className="visually-hidden"> ({title})</span>
        </button>
      )}
      {choice.units ? (
        // Each unit of two or more on its own (docs/decisions/0085-inspection-per-unit.md), named
        // with the item so a screen reader's list of groups tells them apart.
        choice.units.map((unit, index) => (
          <fieldset key={index} className="receiving-unit">
            <legend>
              Unit {index + 1} of {choice.units!.length}
              <span className="visually-hidden"> ({title})</span>
            </legend>
            <UnitChoices base={`${base}-${index}`} choice={unit} dispatch={dispatch} id={id} unit={index} />
          </fieldset>
        ))
      ) : (
        <UnitChoices base={base} choice={choice} dispatch={dispatch} id={id} />
      )}
      <div className="field">
        <label className="field__label" htmlFor={`${base}-note`}>
          Note (optional)
        </label>
        <textarea
          id={`${base}-note`}
          className="field__input field__textarea receiving-item__note"
          maxLength={1000}
          rows={2}
          value={choice.note}
          onChange={(event) => dispatch({ type: 'noteWritten', item: id, note: event.target.value })}
        />
      </div>
      <ReceivingPhotos
        returnId={returnId}
        lineItemId={id}
        title={title}
        photos={choice.photos}
        problem={choice.photoProblem}
        dispatch={dispatch}
      />
    </fieldset>
  )
}

/** The condition and the disposition of an item, or of its unit `unit`. */
function UnitChoices({
  base,
  choice,
  dispatch,
  id,
  unit,
}: {
  base: string
  choice: UnitChoice
  dispatch: Dispatch<ChoiceEvent>
  id: string
  unit?: number
}) {
  const at = unit === undefined ? {} : { unit }
  return (
    <>
      <RadioChoices
        legend="Condition"
        name={`${base}-condition`}
        labels={CONDITION_LABELS}
        value={choice.condition}
        onChange={(condition) => dispatch({ type: 'conditionChosen', item: id, condition, ...at })}
      />
      {choice.condition === 'missing' ? (
        <p className="muted">Nothing came back: it is neither restocked nor refunded, unless the shop says so.</p>
      ) : (
        <RadioChoices
          legend="Disposition"
          name={`${base}-disposition`}
          labels={DISPOSITION_LABELS}
          value={choice.disposition}
          onChange={(disposition) => dispatch({ type: 'dispositionChosen', item: id, disposition, ...at })}
        />
      )}
    </>
  )
}

/**
 * Why an item is not on the form: kept by the shopper, inspected already (each unit, when it was
 * inspected unit by unit), or refunded.
 */
export function settledText(item: ReturnStatusItem, inspections: readonly Inspection[] | undefined): string {
  if (item.keep) return 'Kept by the shopper: not sent back.'
  const first = inspections?.[0]
  if (first) {
    const found = inspections.map((inspection) => {
      const restocked = inspection.restocked_variant ? `, ${inspection.restocked_variant} back on sale` : ''
      const disposition = inspection.disposition ? `, ${DISPOSITION_LABELS[inspection.disposition].toLowerCase()}` : ''
      const unit = inspection.unit ? `unit ${inspection.unit.number}: ` : ''
      return `${unit}${CONDITION_LABELS[inspection.condition].toLowerCase()}${disposition}${restocked}`
    })
    return `Inspected: ${found.join('; ')} (${first.inspected_by}).`
  }
  return 'Refunded already.'
}
