/**
 * Photo uploads against everything else: while photos are re-encoded and stored, the rest of the
 * API must keep answering. The real API (compiled, as `npm start` runs it) on loopback, on PGlite with a
 * data directory and, when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names one, on a PostgreSQL
 * server (in a schema of its own, dropped after). For each engine, GET /portal-registration/config/demo
 * is asked at a steady rate (one request every 10 ms, each sent without waiting for the one
 * before, so a stalled server shows as the whole stall, not as one slow request):
 *   1. with nothing else going on (the baseline),
 *   2. while 3 uploads of a maximum-size photo (a noisy 2560 × 1920 PNG just under 5 MB) run in
 *      parallel, one after the other, for a few seconds,
 *   3. while 3 clients read a stored photo back in parallel, one read after the other (at most
 *      READS, for as long as the uploads).
 * Budget: config's p99 < 100 ms during the uploads and during the reads, on both engines.
 * Then fairness (bench/photoFairness.ts): a small upload's time behind another client's five
 * 49-megapixel JPEGs of noise, and how many of those finished before it (at most one per place).
 * The uploads and reads come from a process of their own (this script, started with --load), as
 * other clients' would: sending and receiving megabytes in the probing process would delay its
 * own measurements.
 * The uploads stay within the API's own limits (60 uploads a minute per client, 30 photos waiting
 * per order): each of the 3 uploaders has an order of its own and at most UPLOADS_PER_ORDER.
 * Prints a table, merges the figures into bench/results.json, exits 1 when a budget is missed.
 *   npm run bench:photos [seconds of uploads, and of reads, default 6]
 */
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { PHOTO_MAX_BYTES } from '../contract/constants'
import type { UploadedPhoto, VerifiedOrder } from '../contract/api'
import { measureFairness, noiseJpeg49, smallJpeg, type Fairness } from './photoFairness'
import { freePort, machineLoad, startServer, stop } from './server'

const uploadSeconds = Math.max(1, Number(process.argv[2] === '--load' ? 0 : (process.argv[2] ?? 6)))
const BASELINE_SECONDS = 3
const BUDGET_P99_MS = 100
/** One config request every this many milliseconds. */
const PROBE_INTERVAL_MS = 10
const UPLOADERS = 3
/** Below the 30 photos an order may hold waiting, and 3 × 19 below the 60 uploads a minute. */
const UPLOADS_PER_ORDER = 19
/** Below the 120 reads a minute per client. */
const READS = 90
/** The whole benchmark stops by itself after this long. */
const DEADLINE_MS = 5 * 60_000
/** An upload or read not answered within this long counts as failed. */
const REQUEST_TIMEOUT_MS = 60_000
const ORDERS = [
  ['#1001', 'jane@example.com'],
  ['#1005', 'solo@example.com'],
  ['#1006', 'bulk@example.com'],
] as const

interface Probe {
  samples: number
  p50: number
  p99: number
  max: number
  errors: number
}

interface Row {
  engine: string
  load: string
  probe: Probe
  /**
   * uploads or reads done during the load, and how many were not answered as expected (an upload:
   * 201 and stored in no more bytes than sent; a read: 200 and the photo whole)
   */
  done: number
  failed: number
  /** the load's own requests: median time of one */
  eachMs: number | null
}

const children = new Set<ChildProcess>()

/**
 * A noisy 2560 × 1920 PNG (the portal's largest side) just under PHOTO_MAX_BYTES: as a palette
 * image, the kind of PNG that grows most as sharp's default RGB PNG (4.9 MB became 8.3 MB).
 */
async function maximumPhoto(): Promise<Uint8Array<ArrayBuffer>> {
  for (let height = 1920; height > 0; height -= 64) {
    const image = await sharp({
      create: {
        width: 2560,
        height,
        channels: 3,
        background: '#a04060',
        noise: { type: 'gaussian', mean: 128, sigma: 20 },
      },
    })
      .png({ palette: true, effort: 1, dither: 0 })
      .toBuffer()
    // A copy of its own: what fetch takes as a body.
    if (image.byteLength < PHOTO_MAX_BYTES) return new Uint8Array(image)
  }
  throw new Error('no photo under the size limit')
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const round = (ms: number) => Math.round(ms * 10) / 10

/**
 * Asks GET config every PROBE_INTERVAL_MS until `until` settles, each request on its own (never
 * waiting for the one before); the latencies of those sent before it settled.
 */
async function probeWhile(base: string, until: Promise<unknown>): Promise<Probe> {
  const latencies: Promise<number | null>[] = []
  let running = true
  const done = () => void (running = false)
  until.then(done, done)
  const started = performance.now()
  for (let i = 0; running; i++) {
    const sent = performance.now()
    latencies.push(
      fetch(`${base}/portal-registration/config/demo`, { signal: AbortSignal.timeout(30_000) }).then(
        async (response) => {
          await response.arrayBuffer()
          return response.ok ? performance.now() - sent : null
        },
        () => null,
      ),
    )
    // The next one at its time on the schedule, whatever this one does.
    const next = started + (i + 1) * PROBE_INTERVAL_MS
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())))
  }
  const settled = await Promise.all(latencies)
  const ok = settled.filter((latency): latency is number => latency !== null).sort((a, b) => a - b)
  return {
    samples: settled.length,
    p50: round(percentile(ok, 50)),
    p99: round(percentile(ok, 99)),
    max: round(ok.at(-1) ?? NaN),
    errors: settled.length - ok.length,
  }
}

async function verify(base: string, [order_name, email]: readonly [string, string]): Promise<string> {
  const response = await fetch(`${base}/portal-registration/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order_name, email, shop: 'demo', portal_id: 'portal-demo' }),
  })
  if (response.status !== 200) throw new Error(`verify ${order_name}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as VerifiedOrder).token
}

interface Upload {
  ms: number
  status: number
  photo: UploadedPhoto | null
}

/** One upload; a failure to answer (status 0) is counted, not thrown. */
async function upload(base: string, token: string, photo: Uint8Array<ArrayBuffer>): Promise<Upload> {
  const sent = performance.now()
  try {
    const response = await fetch(`${base}/portal-registration/photos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      body: photo,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const body = (await response.json()) as UploadedPhoto
    return { ms: performance.now() - sent, status: response.status, photo: response.status === 201 ? body : null }
  } catch {
    return { ms: performance.now() - sent, status: 0, photo: null }
  }
}

/** One read of a stored photo: whether it answered the photo whole. */
async function read(base: string, token: string, photo: UploadedPhoto): Promise<{ ms: number; ok: boolean }> {
  const sent = performance.now()
  try {
    const response = await fetch(`${base}/portal-registration/photos/${photo.id}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const bytes = await response.arrayBuffer()
    return { ms: performance.now() - sent, ok: response.status === 200 && bytes.byteLength === photo.size }
  } catch {
    return { ms: performance.now() - sent, ok: false }
  }
}

const HEADER = `${'engine'.padEnd(11)} ${'load'.padEnd(24)} ${'config n'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'errors'.padStart(6)} ${'done'.padStart(5)} ${'failed'.padStart(6)} ${'each ms'.padStart(8)}`
const line = (row: Row) =>
  `${row.engine.padEnd(11)} ${row.load.padEnd(24)} ${String(row.probe.samples).padStart(8)} ${String(row.probe.p50).padStart(7)} ${String(row.probe.p99).padStart(7)} ${String(row.probe.max).padStart(7)} ${String(row.probe.errors).padStart(6)} ${String(row.done).padStart(5)} ${String(row.failed).padStart(6)} ${String(row.eachMs ?? '').padStart(8)}`

/** Keeps a row, and shows it at once: a long run says where it is. */
function report(rows: Row[], row: Row) {
  rows.push(row)
  console.log(line(row))
}

const median = (values: number[]) =>
  values.length === 0 ? null : Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!)

/** What the load process is asked to do, and answers. */
type Task =
  | {
      kind: 'uploads'
      base: string
      tokens: string[]
      photoFile: string
      seconds: number
      perOrder: number
      firstOrderHas: number
    }
  | {
      kind: 'reads'
      base: string
      token: string
      photo: UploadedPhoto
      reads: number
      seconds: number
      clients: number
    }
type Done = { ms: number; ok: boolean }

/** The load process: runs each task it is sent and answers what it did, until disconnected. */
function serveLoad() {
  process.on('message', (task: Task) => {
    void runTask(task).then((done) => process.send!(done))
  })
}

async function runTask(task: Task): Promise<Done[]> {
  const done: Done[] = []
  if (task.kind === 'uploads') {
    const photo = new Uint8Array(readFileSync(task.photoFile))
    const deadline = performance.now() + task.seconds * 1_000
    await Promise.all(
      task.tokens.map(async (token, index) => {
        for (let n = index === 0 ? task.firstOrderHas : 0; n < task.perOrder && performance.now() < deadline; n++) {
          const sent = await upload(task.base, token, photo)
          done.push({ ms: sent.ms, ok: sent.status === 201 && sent.photo!.size <= photo.byteLength })
        }
      }),
    )
  } else {
    let left = task.reads
    const deadline = performance.now() + task.seconds * 1_000
    await Promise.all(
      Array.from({ length: task.clients }, async () => {
        while (left-- > 0 && performance.now() < deadline) done.push(await read(task.base, task.token, task.photo))
      }),
    )
  }
  return done
}

/** Has the load process run `task`, and resolves with what it did. */
function inLoadProcess(loader: ChildProcess, task: Task): Promise<Done[]> {
  return new Promise((resolve, reject) => {
    const exited = () => reject(new Error('the load process exited'))
    loader.once('exit', exited)
    loader.once('message', (done) => {
      loader.off('exit', exited)
      resolve(done as Done[])
    })
    loader.send(task)
  })
}

async function measure(
  engine: string,
  env: Record<string, string>,
  photo: Uint8Array<ArrayBuffer>,
  photoFile: string,
  fair: { large: Buffer; small: Buffer },
): Promise<{ rows: Row[]; stored: UploadedPhoto | null; fairness: Fairness }> {
  const port = await freePort(18_500, 18_540)
  const base = `http://127.0.0.1:${port}`
  const server = await startServer(port, env)
  children.add(server)
  // This script again, in a process of its own (tsx's loader comes with Node's own options).
  const loader = fork(__filename, ['--load'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  children.add(loader)
  try {
    const tokens = await Promise.all(ORDERS.map((order) => verify(base, order)))
    // Warm-up: JIT, the shop cache, the connection pool, sharp's first load.
    await probeWhile(base, new Promise((resolve) => setTimeout(resolve, 1_000)))
    const first = await upload(base, tokens[0]!, photo)
    if (first.status !== 201) throw new Error(`the warm-up upload answered ${first.status}`)

    const rows: Row[] = []
    const baseline = await probeWhile(base, new Promise((resolve) => setTimeout(resolve, BASELINE_SECONDS * 1_000)))
    report(rows, { engine, load: 'none (baseline)', probe: baseline, done: 0, failed: 0, eachMs: null })

    // The first order has taken the warm-up upload already.
    const uploading = inLoadProcess(loader, {
      kind: 'uploads',
      base,
      tokens,
      photoFile,
      seconds: uploadSeconds,
      perOrder: UPLOADS_PER_ORDER,
      firstOrderHas: 1,
    })
    const during = await probeWhile(base, uploading)
    const uploads = await uploading
    report(rows, {
      engine,
      load: `${UPLOADERS} uploads at a time`,
      probe: during,
      done: uploads.length,
      failed: uploads.filter((done) => !done.ok).length,
      eachMs: median(uploads.map((done) => done.ms)),
    })

    const reading = inLoadProcess(loader, {
      kind: 'reads',
      base,
      token: tokens[0]!,
      photo: first.photo!,
      reads: READS,
      seconds: uploadSeconds,
      clients: UPLOADERS,
    })
    const whileReading = await probeWhile(base, reading)
    const reads = await reading
    report(rows, {
      engine,
      load: `${UPLOADERS} photo reads at a time`,
      probe: whileReading,
      done: reads.length,
      failed: reads.filter((done) => !done.ok).length,
      eachMs: median(reads.map((done) => done.ms)),
    })
    const fairness = await measureFairness(port, [tokens[1]!, tokens[2]!], fair.large, fair.small)
    console.log(fairnessLine(engine, fairness))
    return { rows, stored: first.photo, fairness }
  } finally {
    loader.disconnect()
    children.delete(loader)
    await stop(server)
    children.delete(server)
  }
}

const fairnessLine = (engine: string, fairness: Fairness) =>
  `Fairness on ${engine}: a small upload behind five 49-MP noise JPEGs took ${fairness.smallMs} ms, ${fairness.largeBefore} of the 5 done before it (each large: median ${fairness.largeMedianMs} ms; statuses ${fairness.statuses.join(' ')})`

/** A schema of its own on the PostgreSQL server, so that earlier runs' photos do not count. */
async function withSchema<T>(databaseUrl: string, use: (url: string) => Promise<T>): Promise<T> {
  const schema = `bench_photos_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE SCHEMA ${schema}`)
    const url = new URL(databaseUrl)
    url.searchParams.set('options', `-c search_path=${schema}`)
    return await use(url.toString())
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {})
    await admin.end()
  }
}

async function main(): Promise<boolean> {
  const watchdog = setTimeout(() => {
    console.error(`The photo benchmark took longer than ${DEADLINE_MS / 60_000} minutes: stopped.`)
    process.exit(1)
  }, DEADLINE_MS)
  watchdog.unref()
  // However the benchmark ends, no server is left running.
  process.once('exit', () => {
    for (const child of children) child.kill('SIGTERM')
  })

  const load = machineLoad()
  const reference = await measureReference()
  let made = performance.now()
  const photo = await maximumPhoto()
  made = performance.now() - made
  console.log(`The upload: a noisy 2560 × 1920 PNG of ${photo.byteLength.toLocaleString('en')} bytes.\n\n${HEADER}`)
  const fair = { large: await noiseJpeg49(), small: await smallJpeg() }
  console.log(
    `Fairness: five JPEGs of ${fair.large.byteLength.toLocaleString('en')} bytes (49 MP of noise), then one of ${fair.small.byteLength.toLocaleString('en')} bytes.\n`,
  )
  const rows: Row[] = []
  const stored: Record<string, UploadedPhoto | null> = {}
  const fairness: Record<string, Fairness> = {}
  const scratch = mkdtempSync(join(tmpdir(), 'rebound-bench-photos-'))
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  try {
    // For the load process, which reads it rather than making its own.
    const photoFile = join(scratch, 'photo.png')
    writeFileSync(photoFile, photo)
    const pglite = await measure(
      'PGlite',
      { DATA_DIR: join(scratch, 'data'), DATABASE_URL: '' },
      photo,
      photoFile,
      fair,
    )
    rows.push(...pglite.rows)
    stored.PGlite = pglite.stored
    fairness.PGlite = pglite.fairness
    if (databaseUrl) {
      const postgres = await withSchema(databaseUrl, (url) =>
        measure('PostgreSQL', { DATABASE_URL: url }, photo, photoFile, fair),
      )
      rows.push(...postgres.rows)
      stored.PostgreSQL = postgres.stored
      fairness.PostgreSQL = postgres.fairness
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }

  console.log(
    `\nGET config every ${PROBE_INTERVAL_MS} ms on loopback; the upload: a noisy 2560 × 1920 PNG of ${photo.byteLength.toLocaleString('en')} bytes (made in ${Math.round(made)} ms)`,
  )
  for (const [engine, photoStored] of Object.entries(stored)) {
    if (photoStored)
      console.log(
        `  stored on ${engine} as ${photoStored.content_type}, ${photoStored.size.toLocaleString('en')} bytes`,
      )
  }
  console.log(`\n${HEADER}`)
  for (const row of rows) console.log(line(row))
  let ok = true
  console.log('')
  for (const row of rows.filter((row) => row.done > 0 || row.failed > 0)) {
    const holds = row.probe.p99 < BUDGET_P99_MS && row.probe.errors === 0 && row.failed === 0
    ok &&= holds
    console.log(
      `Budget on ${row.engine}, config during ${row.load}: p99 < ${BUDGET_P99_MS} ms, nothing failed: ${holds ? 'holds' : 'MISSED'} (p99 ${row.probe.p99} ms)`,
    )
  }
  for (const [engine, figures] of Object.entries(fairness)) console.log(fairnessLine(engine, figures))
  if (!databaseUrl)
    console.log('No PostgreSQL server named (BENCH_DATABASE_URL or TEST_DATABASE_URL): PostgreSQL not measured.')
  console.log(load.note)
  printReference(reference)

  saveResults(
    'photos',
    {
      probeIntervalMs: PROBE_INTERVAL_MS,
      uploadSeconds,
      photoBytes: photo.byteLength,
      stored,
      machine: load,
      rows,
      fairness,
    },
    reference,
  )
  return ok
}

if (process.argv[2] === '--load') serveLoad()
else runBenchmark('Photos', main)
