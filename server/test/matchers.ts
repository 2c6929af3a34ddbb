/**
 * Jest's asymmetric matchers typed as the values they stand for. @types/jest types them `any`,
 * which makes an object literal holding one an unsafe `any` to the linter; these keep the literal
 * typed as the body it is compared with.
 */
export const anyString = (): string => expect.any(String) as string
export const anyNumber = (): number => expect.any(Number) as number
export const stringContaining = (text: string): string => expect.stringContaining(text) as string
export const stringMatching = (pattern: string | RegExp): string => expect.stringMatching(pattern) as string
export const arrayContaining = <T>(items: T[]): T[] => expect.arrayContaining(items) as T[]
