/**
 * Where a step's time goes (bench/steps.ts with STEPS_TRACE=<dir>): a Chrome trace of one journey
 * (the timeline, the V8 sampling profiler, the network), cut at the page's `steps:click` and
 * `steps:painted` marks into one window per step left. For each window: the main thread's busy
 * time by what Chrome says it did (its trace events' self time: script, style, layout, paint,
 * garbage collection, parsing…), the functions that took the most samples, and the requests
 * in flight, each with its start and end from the click.
 */

interface TraceEvent {
  name: string
  cat: string
  ph: string
  ts: number
  dur?: number
  /** the thread's CPU time in the event (µs): what the machine's load does not stretch */
  tdur?: number
  pid: number
  tid: number
  id?: string
  args?: {
    name?: string
    data?: {
      url?: string
      requestId?: string
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }
      timeDeltas?: number[]
      startTime?: number
      finishTime?: number
      [key: string]: unknown
    }
    [key: string]: unknown
  }
}
interface ProfileNode {
  id: number
  parent?: number
  callFrame: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number }
}

export interface WindowSummary {
  ms: number
  /** main-thread time inside its tasks */
  busyMs: number
  /** the main thread's CPU time in the tasks begun in the window */
  cpuMs: number
  /** CPU self time by trace event name (ms), largest first */
  byKind: [string, number][]
  /** sampled self time by function (ms), largest first */
  byFunction: [string, number][]
  /** requests in flight during the window: ms from the click to their start and end */
  requests: { url: string; startMs: number; endMs: number | null }[]
}

const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').slice(0, 70)

/** One summary per click…painted pair of marks, in order. */
export function summariseTrace(events: TraceEvent[]): WindowSummary[] {
  const marks = events.filter((event) => event.name === 'steps:click' || event.name === 'steps:painted')
  if (marks.length === 0) return []
  const { pid, tid } = mainThreadOf(events, marks[0]!.pid)
  const windows: { from: number; to: number }[] = []
  let open: number | null = null
  for (const mark of marks.sort((a, b) => a.ts - b.ts)) {
    if (mark.name === 'steps:click') open = mark.ts
    else if (open !== null) {
      windows.push({ from: open, to: mark.ts })
      open = null
    }
  }
  const main = events.filter((event) => event.pid === pid && event.tid === tid && event.ph === 'X' && event.dur)
  const samples = profileSamples(events, pid)
  const requests = requestsOf(events)
  return windows.map(({ from, to }) => {
    const inside = main.filter((event) => event.ts < to && event.ts + event.dur! > from)
    const topLevel = outermost(inside)
    const busy = topLevel.reduce((sum, event) => sum + overlap(event, from, to), 0)
    // The click's own task began before the probe's mark (made in its listener), and holds what
    // the click does at once (the choice rendered, or the next step): it counts, whole.
    const counted = topLevel.filter((event) => event.ts >= from || event.ts + event.dur! > from)
    const cpu = counted.reduce((sum, event) => sum + (event.tdur ?? 0), 0)
    const byKind = selfTimes(inside.filter((event) => counted.some((task) => within(event, task))))
    const byFunction = new Map<string, number>()
    for (const sample of samples)
      if (sample.ts >= from && sample.ts < to)
        byFunction.set(sample.frame, (byFunction.get(sample.frame) ?? 0) + sample.ms)
    return {
      ms: (to - from) / 1000,
      busyMs: busy / 1000,
      cpuMs: cpu / 1000,
      byKind,
      byFunction: top(byFunction, 12),
      requests: requests
        .filter((request) => request.start < to && (request.end ?? Infinity) > from)
        .map((request) => ({
          url: short(request.url),
          startMs: (request.start - from) / 1000,
          endMs: request.end === null ? null : (request.end - from) / 1000,
        })),
    }
  })
}

function mainThreadOf(events: TraceEvent[], pid: number): { pid: number; tid: number } {
  const thread = events.find(
    (event) =>
      event.ph === 'M' && event.name === 'thread_name' && event.pid === pid && event.args?.name === 'CrRendererMain',
  )
  return { pid, tid: thread?.tid ?? -1 }
}

const overlap = (event: TraceEvent, from: number, to: number) =>
  Math.max(0, Math.min(to, event.ts + event.dur!) - Math.max(from, event.ts))

/** The events no other event holds: the thread's tasks. */
/** Whether `event` is inside `task` on the thread's timeline. */
const within = (event: TraceEvent, task: TraceEvent) => event.ts >= task.ts && event.ts < task.ts + task.dur!

function outermost(events: TraceEvent[]): TraceEvent[] {
  const tasks: TraceEvent[] = []
  let end = -Infinity
  for (const event of [...events].sort((a, b) => a.ts - b.ts || b.dur! - a.dur!))
    if (event.ts >= end) {
      tasks.push(event)
      end = event.ts + event.dur!
    }
  return tasks
}

/** CPU self time (an event's own minus its children's) by event name. */
function selfTimes(events: TraceEvent[]): [string, number][] {
  const sorted = [...events].sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  const self = new Map<string, number>()
  const stack: TraceEvent[] = []
  const add = (name: string, amount: number) => self.set(name, (self.get(name) ?? 0) + amount)
  for (const event of sorted) {
    while (stack.length > 0 && stack.at(-1)!.ts + stack.at(-1)!.dur! <= event.ts) stack.pop()
    const parent = stack.at(-1)
    const own = event.tdur ?? 0
    add(event.name, own)
    if (parent) add(parent.name, -own)
    stack.push(event)
  }
  return top(self, 12).map(([name, us]) => [name, us / 1000])
}

function top(totals: Map<string, number>, count: number): [string, number][] {
  return [...totals.entries()]
    .filter(([, value]) => value > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, value]) => [name, Math.round(value * 10) / 10])
}

/** The V8 sampling profiler's samples of the renderer: each sample's time, its leaf function and its length. */
function profileSamples(events: TraceEvent[], pid: number): { ts: number; frame: string; ms: number }[] {
  const nodes = new Map<number, ProfileNode>()
  const result: { ts: number; frame: string; ms: number }[] = []
  const profiles = new Map<string, number>()
  for (const event of events)
    if (event.pid === pid && event.name === 'Profile' && event.id) profiles.set(event.id, event.args!.data!.startTime!)
  const clock = new Map(profiles)
  for (const event of events) {
    if (event.pid !== pid || event.name !== 'ProfileChunk' || !event.id) continue
    const profile = event.args?.data?.cpuProfile
    for (const node of profile?.nodes ?? []) nodes.set(node.id, node)
    const deltas = event.args?.data?.timeDeltas ?? []
    let at = clock.get(event.id) ?? 0
    ;(profile?.samples ?? []).forEach((nodeId, index) => {
      const delta = deltas[index] ?? 0
      at += delta
      const node = nodes.get(nodeId)
      const frame = node ? frameName(node) : '?'
      result.push({ ts: at, frame, ms: 0 })
    })
    clock.set(event.id, at)
  }
  result.sort((a, b) => a.ts - b.ts)
  for (let index = 0; index < result.length - 1; index++)
    result[index]!.ms = Math.min(10, (result[index + 1]!.ts - result[index]!.ts) / 1000)
  return result.filter((sample) => sample.frame !== '(idle)' && sample.frame !== '(program)')
}

function frameName({ callFrame }: ProfileNode): string {
  const file = callFrame.url?.split('/').pop() ?? ''
  const at = file ? ` ${file}:${(callFrame.lineNumber ?? 0) + 1}:${(callFrame.columnNumber ?? 0) + 1}` : ''
  return `${callFrame.functionName || '(anonymous)'}${at}`
}

function requestsOf(events: TraceEvent[]): { url: string; start: number; end: number | null }[] {
  const byId = new Map<string, { url: string; start: number; end: number | null }>()
  for (const event of events) {
    const data = event.args?.data
    if (!data?.requestId) continue
    if (event.name === 'ResourceSendRequest' && data.url)
      byId.set(data.requestId, { url: data.url, start: event.ts, end: null })
    else if (event.name === 'ResourceFinish') {
      const request = byId.get(data.requestId)
      if (request) request.end = event.ts
    }
  }
  return [...byId.values()]
}

/** The summaries as text, one block per step. */
export function printSummaries(names: string[], summaries: WindowSummary[]): string {
  return summaries
    .map((summary, index) => {
      const lines = [
        `${names[index] ?? `step ${index + 1}`}: ${summary.ms.toFixed(0)} ms, main thread busy ${summary.busyMs.toFixed(0)} ms, its CPU ${summary.cpuMs.toFixed(0)} ms`,
        `  by kind: ${summary.byKind.map(([name, ms]) => `${name} ${ms}`).join(', ')}`,
        `  by function: ${summary.byFunction.map(([name, ms]) => `${name} ${ms}`).join(' | ')}`,
        ...summary.requests.map(
          (request) =>
            `  request ${request.url} ${request.startMs.toFixed(0)} → ${request.endMs === null ? '…' : request.endMs.toFixed(0)} ms`,
        ),
      ]
      return lines.join('\n')
    })
    .join('\n')
}
