import type { StaffPhoto } from '../../contract/staff'
import {
  buildInspection,
  choicesReducer,
  draftOf,
  initialChoices,
  restoredChoices,
  type ChoiceEvent,
  type Choices,
} from './ReceivingChoices'

const photo: StaffPhoto = { id: 'k3J9dP0qLm2xYt7Rb5Nw1A', line_item_id: 'mug', url: '/admin/api/returns/r-1/photos/x' }
const later = (item: string): ChoiceEvent => ({ type: 'leftForLater', item })
/** From the form's defaults (each item as new, restocked), or from nothing chosen after `later`. */
const run = (...events: ChoiceEvent[]): Choices => events.reduce(choicesReducer, initialChoices(['mug', 'tee']))
const runBlank = (...events: ChoiceEvent[]): Choices => run(later('mug'), later('tee'), ...events)
const condition = (value: 'as_new' | 'opened' | 'damaged' | 'wrong_item'): ChoiceEvent => ({
  type: 'conditionChosen',
  item: 'mug',
  condition: value,
})

test.each([
  ['as new suggests restock', [condition('as_new')], 'restock'],
  ['damaged suggests nothing', [condition('damaged')], null],
  ['as new then opened takes the suggestion back', [condition('as_new'), condition('opened')], null],
  [
    'a disposition staff chose stays when the condition changes',
    [condition('as_new'), { type: 'dispositionChosen', item: 'mug', disposition: 'restock' }, condition('opened')],
    'restock',
  ],
  [
    'as new does not replace a disposition staff chose',
    [condition('damaged'), { type: 'dispositionChosen', item: 'mug', disposition: 'dispose' }, condition('as_new')],
    'dispose',
  ],
] as [string, ChoiceEvent[], string | null][])('choicesReducer: %s', (_name, events, disposition) => {
  expect(runBlank(...events).mug!.disposition).toBe(disposition)
})

test('choicesReducer: each item starts as new and restocked, a suggestion another condition takes back', () => {
  const start = initialChoices(['mug'])
  expect(start.mug).toMatchObject({ condition: 'as_new', disposition: 'restock', dispositionAuto: true })
  expect(choicesReducer(start, condition('damaged')).mug).toMatchObject({ condition: 'damaged', disposition: null })
  expect(choicesReducer(start, later('mug')).mug).toMatchObject({ condition: null, disposition: null, note: '' })
})

test('a draft keeps the choices and the photos uploaded, not those uploading, and comes back for the items still on the form', () => {
  const choices = run(
    condition('opened'),
    { type: 'dispositionChosen', item: 'mug', disposition: 'refurbish' },
    { type: 'noteWritten', item: 'mug', note: 'Box torn' },
    { type: 'photoStarted', item: 'mug', key: 'a', name: 'mug.jpg' },
    { type: 'photoUploaded', item: 'mug', key: 'a', photo },
    { type: 'photoStarted', item: 'mug', key: 'b', name: 'slow.jpg' },
    later('tee'),
  )
  // As localStorage gives it back.
  const draft = JSON.parse(JSON.stringify(draftOf(choices))) as ReturnType<typeof draftOf>
  const restored = restoredChoices(['mug', 'tee', 'cap'], draft)
  expect(restored.mug).toEqual({
    condition: 'opened',
    disposition: 'refurbish',
    dispositionAuto: false,
    units: null,
    note: 'Box torn',
    photos: [{ key: 'a', name: 'mug.jpg', photo }],
    photoProblem: null,
  })
  expect(restored.tee!.condition).toBeNull()
  // An item the draft did not know: the defaults.
  expect(restored.cap).toMatchObject({ condition: 'as_new', disposition: 'restock' })
})

test('choicesReducer: an event for an item not on the form changes nothing; a photo removed while uploading stays removed', () => {
  const start = initialChoices(['mug'])
  expect(choicesReducer(start, { type: 'noteWritten', item: 'shoe', note: 'x' })).toBe(start)
  const removed = run(
    { type: 'photoStarted', item: 'mug', key: 'a', name: 'mug.jpg' },
    { type: 'photoRemoved', item: 'mug', key: 'a' },
    { type: 'photoUploaded', item: 'mug', key: 'a', photo },
  )
  expect(removed.mug!.photos).toEqual([])
})

const ITEMS = [
  { id: 'mug', title: 'Ceramic Mug' },
  { id: 'tee', title: 'Basic Tee' },
]

test.each([
  ['nothing chosen', [], { ok: false, problem: 'Choose the condition of at least one item.', item: null }],
  [
    'a condition without a disposition',
    [condition('opened')],
    { ok: false, problem: 'Choose the disposition of Ceramic Mug: restock, refurbish or dispose.', item: 'mug' },
  ],
  [
    'a note without a condition',
    [{ type: 'noteWritten', item: 'tee', note: 'Smells of smoke' }, condition('as_new')],
    { ok: false, problem: 'Choose the condition of Basic Tee.', item: 'tee' },
  ],
  [
    'a photo still uploading',
    [condition('as_new'), { type: 'photoStarted', item: 'mug', key: 'a', name: 'mug.jpg' }],
    { ok: false, problem: 'Wait for the photos of Ceramic Mug to finish uploading.', item: 'mug' },
  ],
  [
    'one item done, one untouched: the untouched is left for later',
    [
      condition('damaged'),
      { type: 'dispositionChosen', item: 'mug', disposition: 'dispose' },
      { type: 'noteWritten', item: 'mug', note: '  cracked  ' },
      { type: 'photoStarted', item: 'mug', key: 'a', name: 'mug.jpg' },
      { type: 'photoUploaded', item: 'mug', key: 'a', photo },
    ],
    {
      ok: true,
      body: {
        items: [
          { line_item_id: 'mug', condition: 'damaged', disposition: 'dispose', note: 'cracked', photo_ids: [photo.id] },
        ],
        refund: true,
      },
      left: ['Basic Tee'],
    },
  ],
] as [string, ChoiceEvent[], unknown][])('buildInspection: %s', (_name, events, expected) => {
  expect(buildInspection(ITEMS, runBlank(...events), true)).toEqual(expected)
})

test('buildInspection: the defaults untouched inspect every item as new and restocked', () => {
  expect(buildInspection(ITEMS, run(), false)).toEqual({
    ok: true,
    body: {
      items: [
        { line_item_id: 'mug', condition: 'as_new', disposition: 'restock' },
        { line_item_id: 'tee', condition: 'as_new', disposition: 'restock' },
      ],
      refund: false,
    },
    left: [],
  })
})

describe('an item of two units or more (decision 0085)', () => {
  const start = () => initialChoices(['pair'], { pair: 2 })
  const onUnit = (unit: number, value: 'as_new' | 'damaged'): ChoiceEvent => ({
    type: 'conditionChosen',
    item: 'pair',
    condition: value,
    unit,
  })
  const conditions = (choices: Choices) => choices.pair!.units!.map((unit) => [unit.condition, unit.disposition])

  test('each unit starts as new and restocked, and changes on its own; left for later, every unit is blank', () => {
    const choices = [onUnit(1, 'damaged')].reduce(choicesReducer, start())
    expect(conditions(choices)).toEqual([
      ['as_new', 'restock'],
      ['damaged', null],
    ])
    expect(conditions(choicesReducer(choices, later('pair')))).toEqual([
      [null, null],
      [null, null],
    ])
    // An event for a unit the item does not have changes nothing.
    expect(choicesReducer(choices, onUnit(5, 'as_new'))).toBe(choices)
  })

  test('buildInspection sends each unit, and names the unit still to choose', () => {
    const items = [{ id: 'pair', title: 'Tee' }]
    const damaged = [onUnit(0, 'damaged')].reduce(choicesReducer, start())
    expect(buildInspection(items, damaged, true)).toEqual({
      ok: false,
      problem: 'Choose the disposition of Tee, unit 1 of 2: restock, refurbish or dispose.',
      item: 'pair',
    })
    const chosen = choicesReducer(damaged, { type: 'dispositionChosen', item: 'pair', disposition: 'dispose', unit: 0 })
    expect(buildInspection(items, chosen, false)).toEqual({
      ok: true,
      body: {
        items: [
          {
            line_item_id: 'pair',
            units: [
              { condition: 'damaged', disposition: 'dispose' },
              { condition: 'as_new', disposition: 'restock' },
            ],
          },
        ],
        refund: false,
      },
      left: [],
    })
  })

  test("a draft keeps each unit's choice; one of another number of units gives each unit the item's", () => {
    const chosen = [onUnit(1, 'damaged')].reduce(choicesReducer, start())
    const draft = JSON.parse(JSON.stringify(draftOf(chosen))) as ReturnType<typeof draftOf>
    expect(conditions(restoredChoices(['pair'], draft, { pair: 2 }))).toEqual(conditions(chosen))
    expect(conditions(restoredChoices(['pair'], draft, { pair: 3 }))).toEqual([
      ['as_new', 'restock'],
      ['as_new', 'restock'],
      ['as_new', 'restock'],
    ])
  })
})
