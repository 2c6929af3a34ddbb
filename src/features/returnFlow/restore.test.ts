import { buildOrder } from '../../testing/builders'
import { initialState } from './returnFlowSlice'
import { restoreReturnFlow } from './restore'

test('a valid persisted state is kept', () => {
  const state = { launch: { lang: 'de', testMode: true, configOverride: 'abc' }, order: buildOrder() }
  expect(restoreReturnFlow(state)).toEqual(state)
})

test.each([
  ['undefined', undefined],
  ['a string', 'garbage'],
  ['an array', [1, 2]],
  ['a foreign shape', { cart: [], user: { email: 'x@y.z' } }],
])('%s becomes the initial state', (_name, value) => {
  expect(restoreReturnFlow(value)).toEqual(initialState)
})

test('a broken order is dropped and the launch kept', () => {
  expect(restoreReturnFlow({ launch: { lang: 'de', testMode: 'yes' }, order: { order_name: 1 } })).toEqual({
    launch: { lang: 'de', testMode: false, configOverride: null },
    order: null,
  })
})
