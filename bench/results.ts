import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const RESULTS_FILE = join(__dirname, 'results.json')

/** Merges one benchmark's figures into bench/results.json under `key`, stamped with the time. */
export function saveResults(key: string, figures: Record<string, unknown>): void {
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
    `${JSON.stringify({ ...previous, [key]: { measuredAt: new Date().toISOString(), ...figures } }, null, 2)}\n`,
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
