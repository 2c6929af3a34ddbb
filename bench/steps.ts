/**
 * The shopper's steps, click by click (docs/benchmarks.md): in Debian's Chromium at 390 px wide
 * (the phone of e2e/playwright.config.ts) with a real 4x CPU slowdown (CDP
 * Emulation.setCPUThrottlingRate), against the compiled server as `npm start` runs it serving the
 * built portal, two journeys of the demo shop (docs/rules.md §14), each `runs` times in a fresh
 * browser context with the demo shop put back before it (e2e/resetDemo.ts, as
 * e2e/fixtures.ts resetDemoShops does):
 *   #1001: the tee too small, exchanged for L; the mug, changed my mind; the upsell taken (the
 *          first item the credit buys); store credit when something is left; submitted.
 *   #1006 (150 items): its first tee exchanged for L, its first cap refunded, the upsell
 *          declined, store credit, submitted.
 * For every step left, measured in the page:
 *   - the time from the click that leaves it (the click event's timeStamp, seen by a capturing
 *     listener) to the next step's heading painted: a MutationObserver sees the new
 *     h1#step-title, and the frame that draws it is taken as painted when a message posted from
 *     that frame's requestAnimationFrame callback arrives (the main thread's part of the frame
 *     is done then; the app sets no `elementtiming`, so Element Timing has nothing to report);
 *   - INP of the step's interactions as web-vitals computes it, per step (web-vitals' onINP
 *     reports one INP for the page's whole life, and a journey is one page): Event Timing entries (PerformanceObserver type 'event', durationThreshold 16, and
 *     'first-input'), grouped by interactionId, an interaction's latency its longest entry, and
 *     the step's INP its longest interaction, or with 50 or more interactions the one at
 *     floor(count / 50) from the longest (web-vitals' p98 estimate). An interaction belongs to
 *     the step on screen when it began; a step with none of 16 ms or more counts 0 ("< 16").
 * Budgets: each step's p75 ≤ 100 ms and none over 200 ms; each step's INP ≤ 100 ms at p75 of the
 * runs (Core Web Vitals judge INP at p75). Prints a table per journey and the machine's reference
 * (bench/reference.ts), merges the figures into bench/results.json, exits 1 when a budget is
 * missed. Loopback only; stops by itself after DEADLINE_MS.
 *   npx tsx bench/steps.ts [runs per journey, default 5]
 */
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'puppeteer-core'
import { resetDemoShop } from '../e2e/resetDemo'
import { printSummaries, summariseTrace } from './stepsTrace'
import { measureReference, printReference } from './reference'
import { runBenchmark, saveResults } from './results'
import { ensureBuilt, freePort, machineLoad, startServer, stop } from './server'

const runs = Math.max(1, Number(process.argv[2] ?? 5))
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
const BUDGET = { stepP75Ms: 100, stepMaxMs: 200, inpP75Ms: 100 }
/** The whole benchmark stops by itself after this long. */
const DEADLINE_MS = 20 * 60_000
/** A step not painted within this long fails the run. */
const STEP_TIMEOUT_MS = 30_000
const CPU_SLOWDOWN = 4
/** The phone of the journeys' "phone" project (e2e/playwright.config.ts: Pixel 7 at 390 × 844). */
const VIEWPORT = { width: 390, height: 844, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true }
const ADMIN_TOKEN = randomBytes(24).toString('hex')
/**
 * STEPS_TRACE=<dir>: each measured journey is traced (bench/stepsTrace.ts) into <dir>, and where
 * each step's time went is printed. Tracing slows the page: its timings are for comparing traces.
 */
const TRACE_DIR = process.env.STEPS_TRACE
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'disabled-by-default-v8.cpu_profiler',
]

const flags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--no-first-run',
  // Loopback only: any host name but localhost and its subdomains fails to resolve.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE *.localhost, EXCLUDE 127.0.0.1',
]

/** What the page's script (PAGE_PROBE) records. */
interface Transition {
  from: string
  to: string
  /** the leaving click's event timeStamp */
  clickAt: number
  /** when the MutationObserver saw the next step's heading */
  inDomAt: number
  /** after the frame that drew it (rAF, then a posted message) */
  paintedAt: number
  /** performance.interactionCount at the click */
  interactionCount: number
}
interface Probe {
  transitions: Transition[]
  /** Event Timing entries with an interactionId (and first-input) */
  events: { id: number; start: number; duration: number; name: string }[]
}
declare global {
  interface Window {
    __stepsProbe?: Probe
    /** set when the journey is traced: the probe marks each click and each heading painted */
    __stepsMarks?: boolean
  }
}

/**
 * Runs in every document before the portal's scripts (evaluateOnNewDocument): the click-to-heading
 * timing and the Event Timing observer. Kept free of anything but the browser's own API.
 */
function PAGE_PROBE() {
  const probe: Probe = { transitions: [], events: [] }
  window.__stepsProbe = probe
  const interactionCount = () => (performance as unknown as { interactionCount?: number }).interactionCount ?? 0
  let last: { path: string; heading: Element | null; text: string; at: number; count: number; done: boolean } | null =
    null
  window.addEventListener(
    'click',
    (event) => {
      const heading = document.getElementById('step-title')
      last = {
        path: location.pathname,
        heading,
        text: heading?.textContent ?? '',
        at: event.timeStamp,
        count: interactionCount(),
        done: false,
      }
      if (window.__stepsMarks) performance.mark('steps:click')
    },
    { capture: true },
  )
  // The start screen submits its form from the keyboard, too: Enter counts as the leaving action.
  window.addEventListener(
    'submit',
    (event) => {
      if (last && !last.done && last.path === location.pathname) return
      const heading = document.getElementById('step-title')
      last = {
        path: location.pathname,
        heading,
        text: heading?.textContent ?? '',
        at: event.timeStamp,
        count: interactionCount(),
        done: false,
      }
    },
    { capture: true },
  )
  const check = () => {
    const click = last
    if (!click || click.done || location.pathname === click.path) return
    const heading = document.getElementById('step-title')
    if (!heading || (heading === click.heading && heading.textContent === click.text)) return
    click.done = true
    const inDomAt = performance.now()
    const to = location.pathname
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        if (window.__stepsMarks) performance.mark('steps:painted')
        probe.transitions.push({
          from: click.path,
          to,
          clickAt: click.at,
          inDomAt,
          paintedAt: performance.now(),
          interactionCount: click.count,
        })
      }
      channel.port2.postMessage(0)
    })
  }
  const start = () =>
    new MutationObserver(check).observe(document.documentElement, {
      childList: true,
      subtree: true,
      characterData: true,
    })
  if (document.documentElement) start()
  else document.addEventListener('readystatechange', start, { once: true })
  const record = (list: PerformanceObserverEntryList) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number })[])
      if (entry.interactionId)
        probe.events.push({
          id: entry.interactionId,
          start: entry.startTime,
          duration: entry.duration,
          name: entry.name,
        })
  }
  new PerformanceObserver(record).observe({ type: 'event', buffered: true, durationThreshold: 16 } as never)
  new PerformanceObserver(record).observe({ type: 'first-input', buffered: true })
}

/** One journey's steps as measured, in order. */
interface StepRun {
  step: string
  ms: number
  inDomMs: number
  inp: number
  interactions: number
}

interface JourneyPlan {
  name: string
  order: string
  email: string
  /** the items chosen on /products (their titles; the first enabled row of each) */
  items: string[]
  /** the reason of each chosen item, in order */
  reasons: string[]
  /** the exchange variant of an item that offers one */
  exchange: string
  takeUpsell: boolean
}

const JOURNEYS: JourneyPlan[] = [
  {
    name: '#1001',
    order: '#1001',
    email: 'jane@example.com',
    items: ['Classic Tee', 'Ceramic Mug'],
    reasons: ['too_small', 'changed_mind'],
    exchange: 'classic-tee-l',
    takeUpsell: true,
  },
  {
    name: '#1006 (150 items)',
    order: '#1006',
    email: 'bulk@example.com',
    items: ['Classic Tee', 'Baseball Cap'],
    reasons: ['too_small', 'changed_mind'],
    exchange: 'classic-tee-l',
    takeUpsell: false,
  },
]

/** A path named as a step: /return-item/<line>/return-reason is "reason N", N the item's place. */
function stepName(path: string, lines: string[]): string {
  const item = /^\/return-item\/([^/]+)\/(return-reason|exchange)$/.exec(path)
  if (!item) return path === '/' ? 'start' : path.slice(1)
  if (!lines.includes(item[1]!)) lines.push(item[1]!)
  return `${item[2] === 'return-reason' ? 'reason' : 'exchange'} ${lines.indexOf(item[1]!) + 1}`
}

/** web-vitals' INP of a set of interaction latencies among `count` interactions. */
function inpOf(latencies: number[], count: number): number {
  if (latencies.length === 0) return 0
  const sorted = [...latencies].sort((a, b) => b - a)
  return sorted[Math.min(sorted.length - 1, Math.floor(count / 50))]!
}

/** Drives one journey in a fresh context; its steps with their timings. */
async function journey(browser: Browser, origin: string, plan: JourneyPlan, tracePath?: string): Promise<StepRun[]> {
  const context = await browser.createBrowserContext()
  const page: Page = await context.newPage()
  try {
    await page.setViewport(VIEWPORT)
    await page.emulateCPUThrottling(CPU_SLOWDOWN)
    // tsx compiles with esbuild's keepNames, which wraps the probe's named functions in __name():
    // the page gets a stand-in in the probe's own scope.
    await page.evaluateOnNewDocument(
      `(() => { const __name = (target) => target; ${tracePath ? 'window.__stepsMarks = true;' : ''} (${PAGE_PROBE.toString()})() })()`,
    )
    await page.goto(`${origin}/`, { waitUntil: 'load' })
    await page.waitForSelector('#order-name')
    await page.type('#order-name', plan.order)
    await page.type('#email', plan.email)
    if (tracePath) await page.tracing.start({ path: tracePath, categories: TRACE_CATEGORIES })

    let transitions = 0
    /** Acts, then waits for the next step's heading painted; its path. */
    const leave = async (act: () => Promise<void>): Promise<string> => {
      await act()
      await page.waitForFunction(
        (count: number) => (window.__stepsProbe?.transitions.length ?? 0) > count,
        {
          timeout: STEP_TIMEOUT_MS,
        },
        transitions,
      )
      transitions++
      return page.evaluate(() => window.location.pathname)
    }
    const click = (selector: string) => page.locator(selector).click()
    const next = () => click('::-p-aria([name="Continue"][role="button"])')

    let path = await leave(() => click('button[type="submit"]'))
    let reasonIndex = 0
    for (let guard = 0; path !== '/return-instruction'; guard++) {
      if (guard > 20) throw new Error(`${plan.name}: no end after ${guard} steps, at ${path}`)
      if (path === '/products') {
        path = await leave(async () => {
          for (const title of plan.items)
            await click(
              `::-p-xpath(//li[.//span[@class="item__title" and text()="${title}"]]//input[@type="checkbox" and not(@disabled)])`,
            )
          await next()
        })
      } else if (path.endsWith('/return-reason')) {
        const reason = plan.reasons[reasonIndex++]
        path = await leave(async () => {
          await click(`input[type="radio"][value="${reason}"]`)
          await next()
        })
      } else if (path.endsWith('/exchange')) {
        path = await leave(async () => {
          await click(`input[name="exchange"][value="${plan.exchange}"]`)
          await next()
        })
      } else if (path === '/upsell-offer') {
        path = await leave(() =>
          click(
            plan.takeUpsell
              ? '::-p-aria([name="Yes, show me new items"][role="button"])'
              : '::-p-aria([name="No thanks, continue with my return"][role="button"])',
          ),
        )
      } else if (path === '/upsell-explore') {
        path = await leave(async () => {
          await click('input[name="upsell-variant"]:enabled')
          await click('::-p-aria([name="Choose this item"][role="button"])')
        })
      } else if (path === '/refund-method') {
        path = await leave(async () => {
          await click('input[name="refund-method"][value="store_credit"]')
          await next()
        })
      } else if (path === '/confirm') {
        path = await leave(() => click('::-p-aria([name="Submit return"][role="button"])'))
      } else {
        throw new Error(`${plan.name}: unexpected step ${path}`)
      }
    }
    // Event Timing reports an interaction after its next paint: leave the last ones time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    if (tracePath) {
      const trace = JSON.parse(Buffer.from((await page.tracing.stop())!).toString('utf8')) as { traceEvents: never[] }
      const steps = stepsOf({ ...(await page.evaluate(() => window.__stepsProbe!)), interactionCount: 0 })
      console.log(`\n${plan.name}, traced (${tracePath}):`)
      console.log(
        printSummaries(
          steps.map(({ step }) => step),
          summariseTrace(trace.traceEvents),
        ),
      )
    }
    const probe = await page.evaluate(() => ({
      ...window.__stepsProbe!,
      interactionCount: (performance as unknown as { interactionCount?: number }).interactionCount ?? 0,
    }))
    return stepsOf(probe)
  } finally {
    await context.close()
  }
}

/** The probe's transitions and events as steps: each step's time and its interactions' INP. */
function stepsOf(probe: Probe & { interactionCount: number }): StepRun[] {
  const interactions = new Map<number, { start: number; latency: number }>()
  for (const event of probe.events) {
    const known = interactions.get(event.id)
    interactions.set(event.id, {
      start: Math.min(known?.start ?? Infinity, event.start),
      latency: Math.max(known?.latency ?? 0, event.duration),
    })
  }
  const lines: string[] = []
  return probe.transitions.map((transition, index) => {
    const from = index === 0 ? -Infinity : probe.transitions[index - 1]!.clickAt
    const countBefore = index === 0 ? 0 : probe.transitions[index - 1]!.interactionCount
    const latencies = [...interactions.values()]
      .filter(({ start }) => start >= from && start < transition.clickAt)
      .map(({ latency }) => latency)
    // The step's interactions: those since the previous leaving click, this one's included.
    const count = Math.max(latencies.length, transition.interactionCount - countBefore + 1)
    const step = `${stepName(transition.from, lines)} → ${stepName(transition.to, lines)}`
    return {
      step,
      ms: transition.paintedAt - transition.clickAt,
      inDomMs: transition.inDomAt - transition.clickAt,
      inp: inpOf(latencies, count),
      interactions: count,
    }
  })
}

/** Nearest rank: the smallest value with at least `share` of the values at or below it. */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!
}

interface StepFigures {
  step: string
  runs: number
  p50: number
  p75: number
  max: number
  inDomP75: number
  inpP75: number
  inpMax: number
  ok: boolean
}

function figures(results: StepRun[][]): StepFigures[] {
  const steps = [...new Set(results.flatMap((run) => run.map(({ step }) => step)))]
  return steps.map((step) => {
    const samples = results.flatMap((run) => run.filter((sample) => sample.step === step))
    const ms = samples.map((sample) => sample.ms)
    const inp = samples.map((sample) => sample.inp)
    const row = {
      step,
      runs: samples.length,
      p50: Math.round(percentile(ms, 0.5)),
      p75: Math.round(percentile(ms, 0.75)),
      max: Math.round(Math.max(...ms)),
      inDomP75: Math.round(
        percentile(
          samples.map((sample) => sample.inDomMs),
          0.75,
        ),
      ),
      inpP75: Math.round(percentile(inp, 0.75)),
      inpMax: Math.round(Math.max(...inp)),
    }
    return {
      ...row,
      ok: row.p75 <= BUDGET.stepP75Ms && row.max <= BUDGET.stepMaxMs && row.inpP75 <= BUDGET.inpP75Ms,
    }
  })
}

async function main(): Promise<boolean> {
  const puppeteer = await import('puppeteer-core')
  const loadBefore = machineLoad()
  console.log(loadBefore.note)
  const reference = await measureReference()
  printReference(reference)

  const dist = ensureBuilt()
  const port = await freePort()
  const origin = `http://demo.localhost:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-steps-'))
  const userDataDir = mkdtempSync(join(tmpdir(), 'rebound-bench-chrome-'))
  let server: ChildProcess | undefined
  let browser: Browser | undefined
  const watchdog = setTimeout(() => {
    console.error(`Steps benchmark still running after ${DEADLINE_MS / 60_000} minutes: stopping.`)
    void (async () => {
      await browser?.close().catch(() => undefined)
      if (server) await stop(server)
      process.exit(1)
    })()
  }, DEADLINE_MS)
  const results = new Map<string, StepRun[][]>(JOURNEYS.map(({ name }) => [name, []]))
  try {
    server = await startServer(port, { DATA_DIR: dataDir, ADMIN_TOKEN }, { staticDir: dist })
    browser = await puppeteer.launch({
      executablePath: CHROME_PATH,
      headless: true,
      args: flags,
      userDataDir,
      defaultViewport: null,
    })
    console.log(
      `\n${await browser.version()}, ${CPU_SLOWDOWN}x CPU slowdown, ${VIEWPORT.width} px wide, ${runs} run(s) per journey, against ${origin}\n`,
    )
    // A first journey, not measured: the server's and the browser's first-time costs.
    await resetDemoShop(`http://127.0.0.1:${port}`, ADMIN_TOKEN, 'demo.json')
    await journey(browser, origin, JOURNEYS[0]!)
    for (let run = 1; run <= runs; run++) {
      for (const plan of JOURNEYS) {
        await resetDemoShop(`http://127.0.0.1:${port}`, ADMIN_TOKEN, 'demo.json')
        const steps = await journey(
          browser,
          origin,
          plan,
          TRACE_DIR ? join(TRACE_DIR, `${plan.order.slice(1)}-${run}.json`) : undefined,
        )
        results.get(plan.name)!.push(steps)
        console.log(
          `  ${plan.name} run ${run}/${runs}: ${steps.map((step) => `${Math.round(step.ms)}`).join(' / ')} ms`,
        )
      }
    }
  } finally {
    clearTimeout(watchdog)
    await browser?.close().catch(() => undefined)
    if (server) await stop(server)
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(userDataDir, { recursive: true, force: true })
  }
  const loadAfter = machineLoad()

  let held = true
  const journeys = JOURNEYS.map(({ name }) => ({ journey: name, steps: figures(results.get(name)!) }))
  for (const { journey: name, steps } of journeys) {
    console.log(
      `\n${name}: from the click that leaves a step to the next step's heading painted (ms, ${runs} runs), and INP\n`,
    )
    console.log(
      `${'step'.padEnd(34)} ${'p50'.padStart(5)} ${'p75'.padStart(5)} ${'max'.padStart(5)} ${'in DOM p75'.padStart(10)} ${'INP p75'.padStart(8)} ${'INP max'.padStart(8)}  ok`,
    )
    const inp = (value: number) => (value === 0 ? '< 16' : String(value))
    for (const row of steps) {
      held &&= row.ok
      console.log(
        `${row.step.padEnd(34)} ${String(row.p50).padStart(5)} ${String(row.p75).padStart(5)} ${String(row.max).padStart(5)} ${String(row.inDomP75).padStart(10)} ${inp(row.inpP75).padStart(8)} ${inp(row.inpMax).padStart(8)}  ${row.ok ? 'yes' : 'MISSED'}`,
      )
    }
  }
  console.log(
    `\nBudgets: each step p75 ≤ ${BUDGET.stepP75Ms} ms, none over ${BUDGET.stepMaxMs} ms; INP p75 ≤ ${BUDGET.inpP75Ms} ms.`,
  )
  printReference(reference)
  console.log(
    `Load average: ${loadBefore.loadAverage} before, ${loadAfter.loadAverage} after, on ${loadAfter.cores} cores.`,
  )
  if (loadBefore.busy || loadAfter.busy) console.log(`WARNING: ${(loadBefore.busy ? loadBefore : loadAfter).note}`)
  saveResults(
    'steps',
    {
      runs,
      cpuSlowdown: CPU_SLOWDOWN,
      viewport: VIEWPORT,
      budget: BUDGET,
      loadAverage: { before: loadBefore.loadAverage, after: loadAfter.loadAverage, cores: loadAfter.cores },
      journeys,
      samples: Object.fromEntries(results),
    },
    reference,
  )
  return held
}

runBenchmark('Steps', main)
