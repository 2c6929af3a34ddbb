/**
 * Jest's asymmetric matchers typed as the values they stand for. @types/jest types them `any`,
 * which makes an object literal holding one an unsafe `any` to the linter; these keep the literal
 * typed as the value it is compared with.
 */
export const anything = <T>(): T => expect.anything() as T
export const stringMatching = (pattern: string | RegExp): string => expect.stringMatching(pattern) as string
