import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Reference } from './reference'

const RESULTS_FILE = join(__dirname, 'results.json')

/**
 * Merges one benchmark's figures into bench/results.json under `key`, stamped with the time and,
 * beside them, the machine's reference of the same run (bench/reference.ts). Only the byte
 * budgets go without one: bytes do not depend on the machine.
 */
export function saveResults(key: string, figures: Record<string, unknown>, reference?: Reference): void {
  let previous: Record<string, unknown> = {}
  try {
    previous = existsSync(RESULTS_FILE)
      ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>)
      : {}
  } catch {
    // A damaged results file is replaced rather than stopping the benchmark.
  }
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ ...previous, [key]: { measuredAt: new Date().toISOString(), ...(reference ? { reference } : {}), ...figures } }, null, 2)}\n`,
  )
}

/**
 * Runs a benchmark's `main` (which answers whether every budget held): says so in one line, exits
 * 0 or 1, and 1 with the error when it crashes.
 */
export function runBenchmark(what: string, main: () => Promise<boolean>): void {
  main().then(
    (held) => {
      console.log(held ? `\n${what}: every budget holds.` : `\n${what}: a budget was missed.`)
      process.exit(held ? 0 : 1)
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
