import type { ReactNode } from 'react'
import { Spinner } from '../components/Spinner'
import { Field, InputField } from './Fields'
import { row, type Draft, type TagRow } from './policyDraft'

/** One part of the policy: a card with its heading and what it is for. */
export function Part({
  id,
  title,
  hint,
  children,
}: {
  id: string
  title: string
  hint?: ReactNode
  children: ReactNode
}) {
  return (
    <section className="console-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {hint ? <p className="console-note">{hint}</p> : null}
      {children}
    </section>
  )
}

/** Rules by tag, each a group of its own with a Remove; focus goes to what was added, or back to Add. */
export function TagRows({
  name,
  rows,
  known,
  withDays = false,
  onChange,
  onFocus,
}: {
  name: string
  rows: TagRow[]
  /** the tags the shop's products carry: a rule naming another is hinted at */
  known: readonly string[]
  withDays?: boolean
  onChange: (rows: TagRow[]) => void
  onFocus: (id: string) => void
}) {
  const base = `policy-${name.replace(/\W+/g, '-')}`
  const edit = (key: number, changes: Partial<TagRow>) =>
    onChange(rows.map((each) => (each.key === key ? { ...each, ...changes } : each)))
  const title = name.charAt(0).toUpperCase() + name.slice(1)
  return (
    <>
      {rows.map((rule, index) => {
        const id = `${base}-${rule.key}`
        return (
          <fieldset key={rule.key} className={withDays ? 'policy-row policy-row--days' : 'policy-row'}>
            <legend>
              {title} {index + 1}
            </legend>
            <InputField
              id={`${id}-tag`}
              label="Tag"
              list="policy-tags"
              autoComplete="off"
              required
              maxLength={64}
              value={rule.tag}
              hint={
                rule.tag.trim() && !known.includes(rule.tag.trim()) ? 'No product carries this tag yet.' : undefined
              }
              onChange={(event) => edit(rule.key, { tag: event.target.value })}
            />
            {withDays ? (
              <InputField
                id={`${id}-days`}
                label="Days"
                type="number"
                required
                min={0}
                max={3650}
                step={1}
                value={rule.days}
                onChange={(event) => edit(rule.key, { days: event.target.value })}
              />
            ) : null}
            <InputField
              id={`${id}-label`}
              label="Label shoppers read"
              required
              maxLength={100}
              value={rule.label}
              onChange={(event) => edit(rule.key, { label: event.target.value })}
            />
            <button
              type="button"
              className="button button--secondary policy-row__remove"
              onClick={() => {
                onChange(rows.filter((each) => each.key !== rule.key))
                onFocus(`${base}-add`)
              }}
            >
              Remove<span className="visually-hidden"> {`${name} ${index + 1}`}</span>
            </button>
          </fieldset>
        )
      })}
      {rows.length === 0 ? <p className="muted">None.</p> : null}
      <button
        id={`${base}-add`}
        type="button"
        className="button button--secondary"
        onClick={() => {
          const added = row()
          onChange([...rows, added])
          onFocus(`${base}-${added.key}-tag`)
        }}
      >
        Add a {name}
      </button>
    </>
  )
}

export function LinesField({
  id,
  label,
  value,
  onChange,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
}) {
  return (
    <Field id={id} label={label} hint="One a line.">
      <textarea
        id={id}
        className="field__input field__textarea"
        rows={5}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  )
}

/** A rule of so many returns within so many days, on or off. */
export function Pair({
  id,
  legend,
  toggle,
  returnsLabel,
  pair,
  onChange,
}: {
  id: string
  legend: string
  toggle: string
  returnsLabel: string
  pair: Draft['limit']
  onChange: (pair: Draft['limit']) => void
}) {
  return (
    <fieldset className="console-choices">
      <legend className="visually-hidden">{legend}</legend>
      <label className="console-check">
        <input
          type="checkbox"
          checked={pair.on}
          onChange={(event) => onChange({ ...pair, on: event.target.checked })}
        />
        {toggle}
      </label>
      {pair.on ? (
        <div className="policy__pair">
          <InputField
            id={`${id}-returns`}
            label={returnsLabel}
            type="number"
            required
            min={1}
            max={1000}
            step={1}
            value={pair.returns}
            onChange={(event) => onChange({ ...pair, returns: event.target.value })}
          />
          <InputField
            id={`${id}-days`}
            label="Within (days)"
            type="number"
            required
            min={1}
            max={3650}
            step={1}
            value={pair.days}
            onChange={(event) => onChange({ ...pair, days: event.target.value })}
          />
        </div>
      ) : null}
    </fieldset>
  )
}

/**
 * The return fee waived for reasons the shop marks (decision 0062): a return with an item sent
 * back for one of them costs the shopper no fee. Reasons the policy names that the shop no longer
 * offers stay listed, to be unticked.
 */
export function FeeWaiverPart({
  reasons,
  marked,
  onChange,
}: {
  reasons: { id: string; label: string }[] | undefined
  marked: string[]
  onChange: (marked: string[]) => void
}) {
  const choices = [
    ...(reasons ?? []),
    ...marked
      .filter((id) => reasons && !reasons.some((reason) => reason.id === id))
      .map((id) => ({ id, label: `${id} (no longer a reason of the shop)` })),
  ]
  return (
    <Part
      id="policy-fee-title"
      title="Return fee"
      hint="A return with an item sent back for one of these reasons costs the shopper no return fee (the shop’s settings set the fee). The shopper is told it is waived."
    >
      <fieldset className="console-choices policy__reasons">
        <legend>No return fee for these reasons</legend>
        {!reasons ? (
          <Spinner label="Loading the shop’s reasons" size="small" />
        ) : (
          choices.map((reason) => (
            <label key={reason.id} className="console-check">
              <input
                type="checkbox"
                checked={marked.includes(reason.id)}
                onChange={(event) =>
                  onChange(event.target.checked ? [...marked, reason.id] : marked.filter((id) => id !== reason.id))
                }
              />
              {reason.label}
            </label>
          ))
        )}
      </fieldset>
    </Part>
  )
}
