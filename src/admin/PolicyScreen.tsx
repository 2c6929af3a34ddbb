import { useEffect, useRef, useState, type FormEvent } from 'react'
import { INSPECTION_CONDITIONS } from '../../contract/constants'
import type { StaffPolicy } from '../../contract/staff'
import { Spinner } from '../components/Spinner'
import { useCan, usePolicyQuery, useSavePolicyMutation, useShopQuery } from './api'
import { ConfirmQuestion } from './ConfirmQuestion'
import { ErrorAlert } from './ErrorAlert'
import { InputField } from './Fields'
import { CONDITION_LABELS } from './format'
import { FeeWaiverPart, LinesField, Pair, Part, TagRows } from './PolicyFields'
import { draftOf, policyOf, unknownTags, type Draft } from './policyDraft'
import { useConsoleTitle } from './useConsoleTitle'

/** /admin/policy: the shop's return policy, edited whole (docs/lifecycle.md). */
export function PolicyScreen() {
  const policy = usePolicyQuery()
  const heading = useRef<HTMLHeadingElement>(null)
  useConsoleTitle('Policy')
  useEffect(() => {
    heading.current?.focus()
  }, [])
  return (
    <section aria-labelledby="policy-title" className="policy">
      <h1 id="policy-title" ref={heading} tabIndex={-1}>
        Return policy
      </h1>
      {policy.error ? (
        <ErrorAlert error={policy.error} focus={false} />
      ) : !policy.data ? (
        <Spinner label="Loading the policy" />
      ) : (
        <PolicyForm saved={policy.data} />
      )}
    </section>
  )
}

function PolicyForm({ saved }: { saved: StaffPolicy }) {
  const [draft, setDraft] = useState(() => draftOf(saved.policy))
  const [save, { isLoading, error, reset }] = useSavePolicyMutation()
  const can = useCan()
  const [done, setDone] = useState('')
  const status = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    // The button was disabled while saving, which dropped the focus: it goes to what happened.
    if (done) status.current?.focus()
  }, [done])
  // A new object each time: focusing the same element twice (two removals) still moves focus.
  const [focus, setFocus] = useState<{ id: string } | null>(null)
  const reasons = useShopQuery().data?.reasons
  useEffect(() => {
    if (focus) document.getElementById(focus.id)?.focus()
  }, [focus])

  const change = (changes: Partial<Draft>) => {
    setDone('')
    setDraft((now) => ({ ...now, ...changes }))
  }
  // Tags no product carries make rules that apply to nothing: asked about before saving.
  const [asking, setAsking] = useState<string[] | null>(null)
  const store = async () => {
    const answer = await save(policyOf(draft)).unwrap()
    setDraft(draftOf(answer.policy))
    setDone('Policy saved. New returns follow it from now on.')
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    reset()
    setDone('')
    const unknown = unknownTags(draft, saved.tags)
    if (unknown.length > 0) return setAsking(unknown)
    try {
      await store()
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
          known={saved.tags}
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
          known={saved.tags}
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
        hint="The percent of an item’s refund taken for the condition found; empty takes nothing, but a missing item is not refunded at all unless you set a percent."
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
        <fieldset className="console-choices">
          <legend>Hold an exchange for your decision (its new item is not sent) when the item came back</legend>
          {INSPECTION_CONDITIONS.map((condition) => {
            const always = condition === 'wrong_item' || condition === 'missing'
            return (
              <label key={condition} className="console-check">
                <input
                  type="checkbox"
                  checked={always || draft.hold.includes(condition)}
                  disabled={always}
                  onChange={(event) =>
                    change({
                      hold: event.target.checked
                        ? [...draft.hold, condition]
                        : draft.hold.filter((held) => held !== condition),
                    })
                  }
                />
                {CONDITION_LABELS[condition]}
                {always ? <span className="muted"> (always)</span> : null}
              </label>
            )
          })}
        </fieldset>
      </Part>

      <FeeWaiverPart reasons={reasons} marked={draft.feeWaived} onChange={(feeWaived) => change({ feeWaived })} />

      <div className="policy__save">
        {asking ? (
          <ConfirmQuestion
            id="policy-unknown-tags"
            title="Save with tags no product carries?"
            confirm="Save anyway"
            busy={isLoading}
            error={error}
            act={store}
            onDone={(saved) => {
              setAsking(null)
              // Cancelled: to the first rule whose tag no product carries, to correct it.
              const unknown = (rule: { tag: string }) => asking.includes(rule.tag.trim())
              const window = draft.windows.find(unknown)
              const finalSale = draft.finalSale.find(unknown)
              if (!saved && window) setFocus({ id: `policy-window-${window.key}-tag` })
              else if (!saved && finalSale) setFocus({ id: `policy-final-sale-tag-${finalSale.key}-tag` })
            }}
          >
            No product of the shop carries {asking.map((tag) => `“${tag}”`).join(', ')}, so{' '}
            {asking.length === 1 ? 'its rule applies' : 'their rules apply'} to no product until one does. Tags match
            exactly, capitals included.
          </ConfirmQuestion>
        ) : null}
        <ErrorAlert error={asking ? undefined : error} className="policy__error" />
        <p role="status" className="console-done" ref={status} tabIndex={-1}>
          {done}
        </p>
        {can('policy.write') ? (
          <button type="submit" className="button button--primary" disabled={isLoading}>
            Save policy
          </button>
        ) : (
          <p>Your role cannot change the policy: an owner or admin can.</p>
        )}
      </div>
    </form>
  )
}
