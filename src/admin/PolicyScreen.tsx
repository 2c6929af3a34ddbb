import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { INSPECTION_CONDITIONS } from '../../contract/constants'
import type { ReviewRules, ShopPolicy } from '../../contract/policy'
import type { StaffPolicy } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { errorText, usePolicyQuery, useSavePolicyMutation, useShopQuery } from './api'
import { InputField } from './Fields'
import { CONDITION_LABELS } from './format'

type Condition = (typeof INSPECTION_CONDITIONS)[number]

/** A rule by tag as typed; `days` only for a window. Numbers stay text until saved. */
interface TagRow {
  key: number
  tag: string
  days: string
  label: string
}

/** The policy as the form holds it while staff type. */
interface Draft {
  windows: TagRow[]
  finalSale: TagRow[]
  emails: string
  orderNames: string
  limit: { on: boolean; returns: string; days: string }
  overAmount: string
  photoReasons: string[]
  frequent: { on: boolean; returns: string; days: string }
  answerWithin: string
  deductions: Record<Condition, string>
}

let lastKey = 0
const row = (tag = '', days = '', label = ''): TagRow => ({ key: ++lastKey, tag, days, label })
const text = (value: number | undefined) => (value === undefined ? '' : String(value))

/** The saved policy as the form shows it. */
function draftOf(policy: ShopPolicy): Draft {
  const review = policy.review ?? {}
  return {
    windows: (policy.windows ?? []).map((rule) => row(rule.tag, String(rule.days), rule.label)),
    finalSale: (policy.final_sale ?? []).map((rule) => row(rule.tag, '', rule.label)),
    emails: (policy.blocked?.emails ?? []).join('\n'),
    orderNames: (policy.blocked?.order_names ?? []).join('\n'),
    limit: { on: Boolean(policy.limit), returns: text(policy.limit?.returns), days: text(policy.limit?.days) },
    overAmount: review.over_amount ?? '',
    photoReasons: review.photo_reasons ?? [],
    frequent: {
      on: Boolean(review.frequent),
      returns: text(review.frequent?.returns),
      days: text(review.frequent?.days),
    },
    answerWithin: text(review.answer_within_days),
    deductions: Object.fromEntries(
      INSPECTION_CONDITIONS.map((condition) => [condition, text(policy.deductions?.[condition])]),
    ) as Record<Condition, string>,
  }
}

/** One entry a line, trimmed, without blanks or repeats. */
const lines = (value: string) => [
  ...new Set(
    value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  ),
]

/** The whole policy to PUT: empty parts left out, and the server decides whether the rest is right. */
function policyOf(draft: Draft): ShopPolicy {
  const policy: ShopPolicy = {}
  if (draft.windows.length > 0)
    policy.windows = draft.windows.map((rule) => ({
      tag: rule.tag.trim(),
      days: Number(rule.days),
      label: rule.label.trim(),
    }))
  if (draft.finalSale.length > 0)
    policy.final_sale = draft.finalSale.map((rule) => ({ tag: rule.tag.trim(), label: rule.label.trim() }))
  const emails = lines(draft.emails)
  const orderNames = lines(draft.orderNames)
  if (emails.length > 0 || orderNames.length > 0)
    policy.blocked = {
      ...(emails.length > 0 ? { emails } : {}),
      ...(orderNames.length > 0 ? { order_names: orderNames } : {}),
    }
  if (draft.limit.on) policy.limit = { returns: Number(draft.limit.returns), days: Number(draft.limit.days) }
  const review: ReviewRules = {}
  if (draft.overAmount.trim()) review.over_amount = draft.overAmount.trim()
  if (draft.photoReasons.length > 0) review.photo_reasons = draft.photoReasons
  if (draft.frequent.on)
    review.frequent = { returns: Number(draft.frequent.returns), days: Number(draft.frequent.days) }
  if (draft.answerWithin.trim()) review.answer_within_days = Number(draft.answerWithin)
  if (Object.keys(review).length > 0) policy.review = review
  const deductions = INSPECTION_CONDITIONS.filter((condition) => draft.deductions[condition].trim() !== '')
  if (deductions.length > 0)
    policy.deductions = Object.fromEntries(
      deductions.map((condition) => [condition, Number(draft.deductions[condition])]),
    )
  return policy
}

/** /admin/policy: the shop's return policy, edited whole (docs/lifecycle.md). */
export function PolicyScreen() {
  const policy = usePolicyQuery()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = 'Policy · Returns back office'
    heading.current?.focus()
  }, [])
  return (
    <section aria-labelledby="policy-title" className="policy">
      <h1 id="policy-title" ref={heading} tabIndex={-1}>
        Return policy
      </h1>
      {policy.error ? (
        <p className="error-message" role="alert">
          {errorText(policy.error)}
        </p>
      ) : !policy.data ? (
        <Spinner label="Loading the policy" />
      ) : (
        <PolicyForm saved={policy.data} />
      )}
    </section>
  )
}

function Part({ id, title, hint, children }: { id: string; title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className="console-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {hint ? <p className="console-note">{hint}</p> : null}
      {children}
    </section>
  )
}

function PolicyForm({ saved }: { saved: StaffPolicy }) {
  const [draft, setDraft] = useState(() => draftOf(saved.policy))
  const [save, { isLoading, error, reset }] = useSavePolicyMutation()
  const [done, setDone] = useState('')
  // A new object each time: focusing the same element twice (two removals) still moves focus.
  const [focus, setFocus] = useState<{ id: string } | null>(null)
  const alert = useRef<HTMLParagraphElement>(null)
  const reasons = useShopQuery().data?.reasons
  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus()
  }, [focus])
  useEffect(() => {
    if (error) alert.current?.focus()
  }, [error])

  const change = (changes: Partial<Draft>) => {
    setDone('')
    setDraft((now) => ({ ...now, ...changes }))
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    reset()
    setDone('')
    try {
      const answer = await save(policyOf(draft)).unwrap()
      setDraft(draftOf(answer.policy))
      setDone('Policy saved. New returns follow it from now on.')
    } catch {
      // The alert says what the server refused; what was typed stays.
    }
  }
  // Reasons the policy names that the shop no longer offers stay choosable, to be unticked.
  const reasonChoices = [
    ...(reasons ?? []),
    ...draft.photoReasons
      .filter((id) => reasons && !reasons.some((reason) => reason.id === id))
      .map((id) => ({ id, label: `${id} (no longer a reason of the shop)` })),
  ]

  return (
    <form className="policy__form" onSubmit={(event) => void submit(event)} aria-describedby="policy-intro">
      <p id="policy-intro" className="console-note">
        Every part is optional; without one, the shop’s own settings apply (a return window of{' '}
        {saved.return_window_days} days).
      </p>
      <datalist id="policy-tags">
        {saved.tags.map((tag) => (
          <option key={tag} value={tag} />
        ))}
      </datalist>

      <Part
        id="policy-windows-title"
        title="Return windows by tag"
        hint={`The first rule whose tag a product has sets its window; other products keep the shop’s ${saved.return_window_days} days.`}
      >
        <TagRows
          name="window"
          rows={draft.windows}
          withDays
          onChange={(windows) => change({ windows })}
          onFocus={(id) => setFocus({ id })}
        />
      </Part>

      <Part
        id="policy-final-sale-title"
        title="Final sale by tag"
        hint="Products with one of these tags cannot be returned."
      >
        <TagRows
          name="final-sale tag"
          rows={draft.finalSale}
          onChange={(finalSale) => change({ finalSale })}
          onFocus={(id) => setFocus({ id })}
        />
      </Part>

      <Part
        id="policy-blocked-title"
        title="Blocked shoppers"
        hint="They cannot return online, and are told only the shop’s default error, never why."
      >
        <div className="policy__pair">
          <LinesField
            id="policy-emails"
            label="Blocked e-mails"
            value={draft.emails}
            onChange={(emails) => change({ emails })}
          />
          <LinesField
            id="policy-orders"
            label="Blocked order names"
            value={draft.orderNames}
            onChange={(orderNames) => change({ orderNames })}
          />
        </div>
      </Part>

      <Part
        id="policy-limit-title"
        title="Shopper limit"
        hint="Over the limit, the shopper is told only the default error."
      >
        <Pair
          id="policy-limit"
          legend="Shopper limit"
          toggle="Limit how many returns one shopper makes"
          returnsLabel="At most (returns)"
          pair={draft.limit}
          onChange={(limit) => change({ limit })}
        />
      </Part>

      <Part
        id="policy-review-title"
        title="Review before the label"
        hint="A return that matches any rule waits for staff in the Review queue before it gets a label."
      >
        <InputField
          id="policy-over-amount"
          label={`Worth more than (${saved.currency_code})`}
          hint="An amount like 200.00; empty for no such rule."
          inputMode="decimal"
          pattern="(0|[1-9][0-9]{0,11})(\.[0-9]{1,4})?"
          maxLength={20}
          value={draft.overAmount}
          onChange={(event) => change({ overAmount: event.target.value })}
        />
        <fieldset className="console-choices policy__reasons">
          <legend>Returned with photos for these reasons</legend>
          {!reasons ? (
            <Spinner label="Loading the shop’s reasons" size="small" />
          ) : (
            reasonChoices.map((reason) => (
              <label key={reason.id} className="console-check">
                <input
                  type="checkbox"
                  checked={draft.photoReasons.includes(reason.id)}
                  onChange={(event) =>
                    change({
                      photoReasons: event.target.checked
                        ? [...draft.photoReasons, reason.id]
                        : draft.photoReasons.filter((id) => id !== reason.id),
                    })
                  }
                />
                {reason.label}
              </label>
            ))
          )}
        </fieldset>
        <Pair
          id="policy-frequent"
          legend="Frequent returns"
          toggle="Flag shoppers who return often"
          returnsLabel="More than (returns)"
          pair={draft.frequent}
          onChange={(frequent) => change({ frequent })}
        />
        <InputField
          id="policy-answer-within"
          label="Answer within (business days)"
          hint="The shopper is told to expect an answer by then; 2 when empty."
          type="number"
          min={1}
          max={30}
          step={1}
          placeholder="2"
          value={draft.answerWithin}
          onChange={(event) => change({ answerWithin: event.target.value })}
        />
      </Part>

      <Part
        id="policy-deductions-title"
        title="Deductions on inspection"
        hint="The percent of an item’s refund taken for the condition found; empty takes nothing."
      >
        <div className="policy__grid">
          {INSPECTION_CONDITIONS.map((condition) => (
            <InputField
              key={condition}
              id={`policy-deduction-${condition}`}
              label={`${CONDITION_LABELS[condition]} (%)`}
              type="number"
              min={0}
              max={100}
              step={1}
              value={draft.deductions[condition]}
              onChange={(event) => change({ deductions: { ...draft.deductions, [condition]: event.target.value } })}
            />
          ))}
        </div>
      </Part>

      <div className="policy__save">
        {error ? (
          <p ref={alert} className="error-message policy__error" role="alert" tabIndex={-1}>
            {errorText(error)}
          </p>
        ) : null}
        <p role="status" className="console-done">
          {done}
        </p>
        <button type="submit" className="button button--primary" disabled={isLoading}>
          Save policy
        </button>
      </div>
    </form>
  )
}

/** Rules by tag, each a group of its own with a Remove; focus goes to what was added, or back to Add. */
function TagRows({
  name,
  rows,
  withDays = false,
  onChange,
  onFocus,
}: {
  name: string
  rows: TagRow[]
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

function LinesField({
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
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="field__input field__textarea"
        rows={5}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <span id={`${id}-hint`} className="field__hint">
        One a line.
      </span>
    </div>
  )
}

/** A rule of so many returns within so many days, on or off. */
function Pair({
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
