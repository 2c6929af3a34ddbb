/**
 * Byte budgets of the production build (issue "Benchmarks and budgets", item 1): gzip and brotli
 * sizes of what the start screen loads before it is interactive, and of each lazy chunk, and no
 * module duplicated across chunks. Builds with webpack's stats, prints a table, writes
 * bench/results.json (merged with other benchmarks' figures), exits 1 when a budget is missed.
 */
import { saveResults } from './results'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const KB = 1024
const BUDGET = { startJsGzip: 120 * KB, lazyChunkGzip: 15 * KB, consoleJsGzip: 125 * KB }
const root = join(__dirname, '..')
const dist = join(root, 'dist')
const statsFile = join(root, 'dist-stats.json')

interface Stats {
  chunks: {
    /** the compilation: the portal, or the back office's page */
    compilation: string
    id: string | number
    names: string[]
    initial: boolean
    files: string[]
    modules?: { identifier: string; name: string; size: number }[]
  }[]
}

execFileSync('npx', ['webpack', '--mode', 'production', `--json=${statsFile}`], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
})
// Two compilations (webpack.config.mjs): the portal, and the back office's page.
const compilations = (
  JSON.parse(readFileSync(statsFile, 'utf8')) as {
    children: { name: string; chunks: Omit<Stats['chunks'][number], 'compilation'>[] }[]
  }
).children
const stats: Stats = {
  chunks: compilations.flatMap((compilation) =>
    compilation.chunks.map((chunk) => ({ ...chunk, compilation: compilation.name })),
  ),
}

const sizes = (file: string) => {
  const bytes = readFileSync(join(dist, file))
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}

/** What a page loads: its scripts and stylesheets (it waits for nothing else). */
const pageFiles = (page: string) =>
  [...readFileSync(join(dist, page), 'utf8').matchAll(/(?:src|href)=["']?\/(assets\/[^"' >]+\.(?:js|css))/g)].map(
    (match) => match[1]!,
  )
const startFiles = pageFiles('index.html')
const startJs = startFiles.filter((file) => file.endsWith('.js')).map(sizes)
const startCss = startFiles.filter((file) => file.endsWith('.css')).map(sizes)
// The back office (docs/back-office.md) is a page of its own, admin.html: none of it is the portal's.
const consoleFiles = pageFiles('admin.html')
const consoleJs = consoleFiles.filter((file) => file.endsWith('.js')).map(sizes)
const consoleCss = consoleFiles.filter((file) => file.endsWith('.css')).map(sizes)
const sum = (list: { raw: number; gzip: number; brotli: number }[]) =>
  list.reduce(
    (total, item) => ({ raw: total.raw + item.raw, gzip: total.gzip + item.gzip, brotli: total.brotli + item.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  )

/** An unnamed chunk is code shared by later screens: named after the packages or folders in it. */
function sharedChunkName(chunk: Stats['chunks'][number]): string {
  const owners = new Set(
    (chunk.modules ?? [])
      .filter((module) => !module.identifier.startsWith('webpack/runtime'))
      .map(
        (module) =>
          module.name.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
          module.name.replace(/^\.\/src\/((?:[^/]+\/)?[^/ ]+).*/, '$1'),
      ),
  )
  return `shared ${chunk.id} (${[...owners].slice(0, 3).join(', ')}${owners.size > 3 ? ', …' : ''})`
}

const lazyChunks = stats.chunks
  .filter((chunk) => !chunk.initial)
  .map((chunk) => {
    const js = chunk.files.filter((file) => file.endsWith('.js'))
    return { name: chunk.names[0] ?? sharedChunkName(chunk), ...sum(js.map(sizes)) }
  })
  .sort((a, b) => a.name.localeCompare(b.name))

// A module in two chunks of one page is shipped twice. The portal and the back office are two
// pages, each with its own copy of React and the libraries: a shopper never loads the console's.
const owners = new Map<string, string[]>()
for (const chunk of stats.chunks) {
  if (chunk.compilation !== 'portal') continue
  for (const module of chunk.modules ?? []) {
    if (module.identifier.startsWith('webpack/runtime')) continue
    owners.set(module.name, [...(owners.get(module.name) ?? []), chunk.names[0] ?? String(chunk.id)])
  }
}
const duplicated = [...owners].filter(([, chunks]) => chunks.length > 1)

const js = sum(startJs)
const css = sum(startCss)
const rows: { figure: string; gzip: number; brotli: number; budget: number | null }[] = [
  { figure: 'start screen JavaScript', gzip: js.gzip, brotli: js.brotli, budget: BUDGET.startJsGzip },
  { figure: 'start screen CSS', gzip: css.gzip, brotli: css.brotli, budget: null },
  { figure: 'back office JavaScript', ...sum(consoleJs), budget: BUDGET.consoleJsGzip },
  { figure: 'back office CSS', ...sum(consoleCss), budget: null },
  ...lazyChunks.map((chunk) => ({
    figure: `lazy chunk ${chunk.name}`,
    gzip: chunk.gzip,
    brotli: chunk.brotli,
    budget: BUDGET.lazyChunkGzip,
  })),
]

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`
let failed = false
const width = Math.max(34, ...rows.map((row) => row.figure.length))
console.log('\nBytes of the production build (gzip -9, brotli -11)\n')
console.log(`${'figure'.padEnd(width)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)} ${'budget'.padStart(10)}  ok`)
for (const row of rows) {
  const ok = row.budget === null || row.gzip <= row.budget
  failed ||= !ok
  console.log(
    `${row.figure.padEnd(width)} ${kb(row.gzip).padStart(10)} ${kb(row.brotli).padStart(10)} ${(row.budget ? kb(row.budget) : '—').padStart(10)}  ${ok ? 'yes' : 'MISSED'}`,
  )
}
console.log(
  `${'modules in more than one chunk'.padEnd(width)} ${String(duplicated.length).padStart(10)} ${''.padStart(10)} ${'0'.padStart(10)}  ${duplicated.length === 0 ? 'yes' : 'MISSED'}`,
)
for (const [name, chunks] of duplicated) console.log(`  ${name}: ${chunks.join(', ')}`)
failed ||= duplicated.length > 0

saveResults('bytes', { rows, duplicatedModules: duplicated.map(([name]) => name) })
console.log(failed ? '\nA byte budget was missed.' : '\nEvery byte budget holds.')
process.exit(failed ? 1 : 0)
