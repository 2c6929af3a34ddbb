/**
 * A chunk that only some visits need (a preview's parser, the reader of CSS colour names): the
 * start bundle carries its loader, not its code. Loaded once; `settled` says whether what
 * `current` answers is final. Never rejects: when the chunk cannot be loaded (offline), `current`
 * stays null and the caller goes on without it.
 */
export interface OptionalChunk<T> {
  load: () => Promise<void>
  current: () => T | null
  settled: () => boolean
}

export function optionalChunk<T>(what: string, importChunk: () => Promise<T>): OptionalChunk<T> {
  let module: T | null = null
  let loading: Promise<void> | null = null
  let settled = false
  return {
    load: () =>
      (loading ??= importChunk()
        .then(
          (loaded) => {
            module = loaded
          },
          (error: unknown) => console.warn(`${what} could not be loaded; going on without it.`, error),
        )
        .finally(() => {
          settled = true
        })),
    current: () => module,
    settled: () => settled,
  }
}
