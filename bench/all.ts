/**
 * Every benchmark in turn (bytes, API, photos, Lighthouse, the shopper's steps, scale, the back
 * office at 100,000 returns, events, the console under load, verify as replicas scale): each
 * prints its table and the machine's reference (bench/reference.ts; bytes need none) and merges
 * its figures into bench/results.json. A missed budget does not stop the others; the exit code
 * is 1 when any missed (or failed).
 *   npm run bench
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const BENCHMARKS = [
  'bytes',
  'api',
  'photos',
  'lighthouse',
  'steps',
  'scale',
  'backOffice',
  'events',
  'consoleUnderLoad',
  'verifyReplicas',
] as const
const root = join(__dirname, '..')

const outcomes = BENCHMARKS.map((name) => {
  const started = Date.now()
  const run = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(__dirname, `${name}.ts`)], {
    cwd: root,
    stdio: 'inherit',
  })
  return { name, code: run.status ?? 1, seconds: Math.round((Date.now() - started) / 1000) }
})

console.log('\nBenchmarks\n')
for (const { name, code, seconds } of outcomes)
  console.log(`${name.padEnd(12)} ${code === 0 ? 'every budget holds' : 'MISSED (or failed)'}  ${seconds} s`)
process.exit(outcomes.every(({ code }) => code === 0) ? 0 : 1)
