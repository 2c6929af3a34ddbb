import { waitFor } from '@testing-library/react'
import { devToolsOptions } from './devTools'

describe('devToolsOptions', () => {
  const memory = () => {
    const data = new Map<string, string>()
    return {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
      removeItem: (key: string) => void data.delete(key),
    }
  }

  test('development: on, with traces', () => {
    expect(devToolsOptions(false, '', null)).toMatchObject({ trace: true })
  })

  test('production: off unless ?devtools=1, then on for the session with e-mails masked, off again with ?devtools=0', async () => {
    const storage = memory()
    expect(devToolsOptions(true, '', storage)).toBe(false)
    const on = devToolsOptions(true, '?devtools=1', storage)
    expect(on).toMatchObject({ trace: false })
    expect(devToolsOptions(true, '', storage)).not.toBe(false)
    const { stateSanitizer, actionSanitizer } = on as {
      stateSanitizer: (state: unknown, index: number) => unknown
      actionSanitizer: (action: { type: string }, id: number) => unknown
    }
    const action = { type: 'returnFlow/orderVerified', payload: { email: 'jane@example.com' } }
    // Until the masker's chunk is in, nothing but an action's type is shown.
    expect(stateSanitizer({ form: { email: 'jane@example.com' } }, 0)).toEqual({})
    expect(actionSanitizer(action, 0)).toEqual({ type: 'returnFlow/orderVerified' })
    await waitFor(() =>
      expect(stateSanitizer({ form: { email: 'jane@example.com' } }, 0)).toEqual({
        form: { email: 'j***@example.com' },
      }),
    )
    expect(actionSanitizer(action, 0)).toEqual({ ...action, payload: { email: 'j***@example.com' } })
    expect(devToolsOptions(true, '?devtools=0', storage)).toBe(false)
    expect(devToolsOptions(true, '', storage)).toBe(false)
  })
})
