import type { InputHTMLAttributes, ReactNode } from 'react'

/**
 * A field's frame: its label above the control (`children`, whose id is `id`), and a hint below,
 * read with it when the control names `${id}-hint` in aria-describedby.
 */
export function Field({
  id,
  label,
  hint,
  className,
  children,
}: {
  id: string
  label: string
  hint?: string | undefined
  className?: string | undefined
  children: ReactNode
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      {hint ? (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      ) : null}
    </div>
  )
}

/** A labelled day picker; the day arrives whole (YYYY-MM-DD), or '' when cleared. */
export function DayField({
  id,
  label,
  value,
  onChange,
}: {
  id: string
  label: string
  value: string
  onChange: (day: string) => void
}) {
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        className="field__input"
        type="date"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  )
}

/** A labelled choice of one option, or none (the first option, `anyLabel`, whose value is ''). */
export function ChoiceField({
  id,
  label,
  anyLabel,
  value,
  options,
  onChange,
}: {
  id: string
  label: string
  anyLabel: string
  value: string
  options: readonly { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  return (
    <Field id={id} label={label}>
      <select id={id} className="field__input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  )
}

/** A labelled input, with a hint read with it; the rest of the props go to the input as they are. */
export function InputField({
  id,
  label,
  hint,
  className,
  ...input
}: {
  id: string
  label: string
  hint?: string
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  return (
    <Field id={id} label={label} hint={hint} className={className}>
      <input id={id} className="field__input" aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
    </Field>
  )
}
