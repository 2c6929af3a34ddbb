import type { StaffPhoto, InspectionRequest } from '../../contract/staff'
import type { DISPOSITIONS, INSPECTION_CONDITIONS } from '../../contract/constants'

export type Condition = (typeof INSPECTION_CONDITIONS)[number]
export type Disposition = (typeof DISPOSITIONS)[number]

export const CONDITION_LABELS: Record<Condition, string> = {
  as_new: 'As new',
  opened: 'Opened',
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  missing: 'Missing from the parcel',
}

export const DISPOSITION_LABELS: Record<Disposition, string> = {
  restock: 'Restock',
  refurbish: 'Refurbish',
  dispose: 'Dispose',
}

/** A photo of the item: uploading (photo null), or uploaded. */
export interface PhotoSlot {
  key: string
  name: string
  photo: StaffPhoto | null
}

/** A condition and a disposition: an item's, or one unit's of it. */
export interface UnitChoice {
  condition: Condition | null
  disposition: Disposition | null
  /** restock put there by choosing "As new", not by staff: another condition takes it back */
  dispositionAuto: boolean
}

/** What the warehouse has chosen for one item so far. */
export interface ItemChoice extends UnitChoice {
  /** an item of two units or more: each unit's own (docs/decisions/0085-inspection-per-unit.md); null otherwise */
  units: UnitChoice[] | null
  note: string
  photos: PhotoSlot[]
  /** why the last photo was not taken */
  photoProblem: string | null
}

export type Choices = Record<string, ItemChoice>

export type ChoiceEvent =
  /** `unit`: the unit's index, for an item inspected unit by unit */
  | { type: 'conditionChosen'; item: string; condition: Condition; unit?: number }
  | { type: 'dispositionChosen'; item: string; disposition: Disposition; unit?: number }
  | { type: 'noteWritten'; item: string; note: string }
  | { type: 'photoStarted'; item: string; key: string; name: string }
  | { type: 'photoUploaded'; item: string; key: string; photo: StaffPhoto }
  | { type: 'photoRefused'; item: string; key: string | null; problem: string }
  | { type: 'photoRemoved'; item: string; key: string }
  | { type: 'leftForLater'; item: string }

const noUnit = (): UnitChoice => ({ condition: null, disposition: null, dispositionAuto: false })
/**
 * What most parcels hold: each item as new, going back on sale. The restock is the suggestion
 * "As new" makes (dispositionAuto), so another condition takes it back.
 */
const newUnit = (): UnitChoice => ({ condition: 'as_new', disposition: 'restock', dispositionAuto: true })
const unitsFor = (quantity: number, unit: () => UnitChoice) =>
  quantity > 1 ? Array.from({ length: quantity }, unit) : null

const blank = (quantity = 1): ItemChoice => ({
  ...noUnit(),
  units: unitsFor(quantity, noUnit),
  note: '',
  photos: [],
  photoProblem: null,
})

const asNew = (quantity: number): ItemChoice => ({ ...blank(), ...newUnit(), units: unitsFor(quantity, newUnit) })

/** The units returned of each item, by id: an item not named has one. */
export type Quantities = Readonly<Record<string, number>>

/** Each of these items (each of their units) as new and restocked, until staff say otherwise. */
export const initialChoices = (items: readonly string[], quantities: Quantities = {}): Choices =>
  Object.fromEntries(items.map((item) => [item, asNew(quantities[item] ?? 1)]))

/** What a draft keeps of one item: its choices and the photos uploaded (not those uploading). */
export type DraftChoice = Pick<ItemChoice, 'condition' | 'disposition' | 'dispositionAuto' | 'note'> & {
  /** absent from a draft kept before units were: each unit then takes the item's choice */
  units?: UnitChoice[] | null
  photos: { key: string; name: string; photo: StaffPhoto }[]
}

/** The choices as a draft keeps them (receivingDraft.ts). */
export const draftOf = (choices: Choices): Record<string, DraftChoice> =>
  Object.fromEntries(
    Object.entries(choices).map(([item, choice]) => [
      item,
      {
        condition: choice.condition,
        disposition: choice.disposition,
        dispositionAuto: choice.dispositionAuto,
        units: choice.units,
        note: choice.note,
        photos: choice.photos.flatMap((slot) => (slot.photo ? [{ ...slot, photo: slot.photo }] : [])),
      },
    ]),
  )

/** A unit's choice as a draft kept it; what it lacks is not chosen. */
const keptUnit = (kept: Partial<UnitChoice> | null | undefined): UnitChoice => ({
  condition: kept?.condition ?? null,
  disposition: kept?.disposition ?? null,
  dispositionAuto: kept?.dispositionAuto === true,
})

/**
 * The defaults for these items, with what a draft kept of those still on the form. A draft kept
 * before units were, or of another number of units, gives each unit the item's choice.
 */
export function restoredChoices(
  items: readonly string[],
  draft: Record<string, DraftChoice> | null,
  quantities: Quantities = {},
): Choices {
  const choices = initialChoices(items, quantities)
  for (const item of items) {
    const kept = draft?.[item]
    const quantity = quantities[item] ?? 1
    if (kept && typeof kept === 'object')
      choices[item] = {
        ...keptUnit(kept),
        units:
          quantity > 1
            ? Array.from({ length: quantity }, (_, index) =>
                keptUnit(Array.isArray(kept.units) && kept.units.length === quantity ? kept.units[index] : kept),
              )
            : null,
        note: typeof kept.note === 'string' ? kept.note : '',
        photos: Array.isArray(kept.photos) ? kept.photos : [],
        photoProblem: null,
      }
  }
  return choices
}

/**
 * The form's transitions. Only "As new" suggests a disposition (restock): a damaged or wrong item
 * goes back on sale only when staff say so. An event for an item not on the form is ignored.
 */
export function choicesReducer(choices: Choices, event: ChoiceEvent): Choices {
  const now = choices[event.item]
  if (!now) return choices
  const next = (change: Partial<ItemChoice>): Choices => ({ ...choices, [event.item]: { ...now, ...change } })
  /** The change to the item, or to its unit `event.unit` when it is inspected unit by unit. */
  const nextUnit = (change: (unit: UnitChoice) => UnitChoice): Choices => {
    if (!('unit' in event) || event.unit === undefined || !now.units) return next(change(now))
    const index = event.unit
    if (!now.units[index]) return choices
    return next({ units: now.units.map((unit, at) => (at === index ? change(unit) : unit)) })
  }
  switch (event.type) {
    case 'conditionChosen':
      return nextUnit((unit) => {
        if (event.condition === 'as_new' && (unit.disposition === null || unit.dispositionAuto))
          return { condition: event.condition, disposition: 'restock', dispositionAuto: true }
        if (unit.dispositionAuto) return { condition: event.condition, disposition: null, dispositionAuto: false }
        return { ...unit, condition: event.condition }
      })
    case 'dispositionChosen':
      return nextUnit((unit) => ({ ...unit, disposition: event.disposition, dispositionAuto: false }))
    case 'noteWritten':
      return next({ note: event.note })
    case 'photoStarted':
      return next({ photos: [...now.photos, { key: event.key, name: event.name, photo: null }], photoProblem: null })
    case 'photoUploaded':
      // Removed while it uploaded: it stays removed.
      if (!now.photos.some((slot) => slot.key === event.key)) return choices
      return next({
        photos: now.photos.map((slot) => (slot.key === event.key ? { ...slot, photo: event.photo } : slot)),
      })
    case 'photoRefused':
      return next({ photos: now.photos.filter((slot) => slot.key !== event.key), photoProblem: event.problem })
    case 'photoRemoved':
      return next({ photos: now.photos.filter((slot) => slot.key !== event.key), photoProblem: null })
    case 'leftForLater':
      return { ...choices, [event.item]: blank(now.units?.length ?? 1) }
  }
}

const unitTouched = (unit: UnitChoice) => unit.condition !== null || unit.disposition !== null
const touched = (choice: ItemChoice) =>
  (choice.units ? choice.units.some(unitTouched) : unitTouched(choice)) ||
  choice.note.trim() !== '' ||
  choice.photos.length > 0

export type BuiltInspection =
  { ok: true; body: InspectionRequest; left: string[] } | { ok: false; problem: string; item: string | null }

/**
 * The inspection to send, from the items on the form (in order): each item with a condition, and
 * the items left untouched listed as left for later. An item begun but not finished, or a photo
 * still uploading, is a problem to fix first.
 */
export function buildInspection(
  items: readonly { id: string; title: string }[],
  choices: Choices,
  refund: boolean,
): BuiltInspection {
  const body: InspectionRequest['items'] = []
  const left: string[] = []
  for (const { id, title } of items) {
    const choice = choices[id] ?? blank()
    if (choice.photos.some((slot) => slot.photo === null))
      return { ok: false, problem: `Wait for the photos of ${title} to finish uploading.`, item: id }
    if (!touched(choice)) {
      left.push(title)
      continue
    }
    // Each unit of an item of two or more, named "unit 1 of 2"; or the item's own.
    const units = choice.units ?? [choice]
    const found: { condition: Condition; disposition?: Disposition }[] = []
    for (const [index, unit] of units.entries()) {
      const named = choice.units ? `${title}, unit ${index + 1} of ${units.length}` : title
      if (!unit.condition) return { ok: false, problem: `Choose the condition of ${named}.`, item: id }
      // A missing item has no disposition: nothing came back (decision 0057).
      const missing = unit.condition === 'missing'
      if (!missing && !unit.disposition)
        return { ok: false, problem: `Choose the disposition of ${named}: restock, refurbish or dispose.`, item: id }
      found.push({
        condition: unit.condition,
        ...(!missing && unit.disposition ? { disposition: unit.disposition } : {}),
      })
    }
    const note = choice.note.trim()
    const photoIds = choice.photos.flatMap((slot) => (slot.photo ? [slot.photo.id] : []))
    body.push({
      line_item_id: id,
      ...(choice.units ? { units: found } : found[0]!),
      ...(note ? { note } : {}),
      ...(photoIds.length > 0 ? { photo_ids: photoIds } : {}),
    })
  }
  if (body.length === 0) return { ok: false, problem: 'Choose the condition of at least one item.', item: null }
  return { ok: true, body: { items: body, refund }, left }
}

/** A labelled set of radio buttons, each a large target (a phone in a gloved hand). */
export function RadioChoices<T extends string>({
  legend,
  name,
  labels,
  value,
  onChange,
}: {
  legend: string
  name: string
  labels: Record<T, string>
  value: T | null
  onChange: (value: T) => void
}) {
  return (
    <fieldset className="choices receiving-choices">
      <legend>{legend}</legend>
      {(Object.entries(labels) as [T, string][]).map(([option, label]) => (
        <label key={option} className="choice receiving-choice">
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
          <span>{label}</span>
        </label>
      ))}
    </fieldset>
  )
}
