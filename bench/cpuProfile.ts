/**
 * Where a Node CPU profile's time went (a `.cpuprofile` of `node --cpu-prof`): by place (a package
 * of node_modules, Node's own modules, the server's files, the collector, idle), by function, and
 * inclusive of callees (a sample counts once for each place on its stack). A sample's time is the
 * wall time since the one before: a thread descheduled inside a system call (a `writev` whose
 * wake-up of its peer handed the core over) counts it all there, so on a busy machine read the
 * process's CPU from /proc beside it. Used by
 * bench/verifyProfile.ts; on its own:
 *   npx tsx bench/cpuProfile.ts <file.cpuprofile> [top functions, default 30]
 */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

export interface Profile {
  nodes: ProfileNode[]
  /** µs of the monotonic clock (CLOCK_MONOTONIC, as process.hrtime reads it) */
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Now on the clock a profile's times are on (µs): the same in every process of the machine. */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)

/** The place a frame's code belongs to: a package, a group of Node's modules, a server file, or V8's own. */
export function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName || 'anonymous'}`
  const modules = url.lastIndexOf('node_modules/')
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/')
  const dist = url.indexOf('/dist/')
  return dist >= 0 ? url.slice(dist + '/dist/'.length) : url
}

export interface ProfileSummary {
  /** ms of samples in all, and of samples not idle */
  totalMs: number
  busyMs: number
  self: [place: string, ms: number][]
  inclusive: [place: string, ms: number][]
  functions: [name: string, ms: number][]
  /** by function, callees included: where a request's time went, step by step */
  calls: [name: string, ms: number][]
}

/** The summary of the samples taken within `window` (µs, monotonicUs), or of them all. */
export function summarise(profile: Profile, top = 30, window?: { from: number; to: number }): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const functions = new Map<string, number>()
  const calls = new Map<string, number>()
  const nameOf = (frame: ProfileNode['callFrame']) =>
    `${frame.functionName || '(anonymous)'} ${placeOf(frame.url, frame.functionName)}:${frame.lineNumber + 1}`
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us)
  let total = 0
  let idle = 0
  let at = profile.startTime
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0
    at += us
    if (window && (at < window.from || at > window.to)) return
    total += us
    const node = byId.get(id)!
    const { functionName, url } = node.callFrame
    if (functionName === '(idle)') idle += us
    add(self, placeOf(url, functionName), us)
    add(functions, nameOf(node.callFrame), us)
    const seen = new Set<string>()
    const seenCalls = new Set<string>()
    for (let frameId: number | undefined = id; frameId !== undefined; frameId = parent.get(frameId)) {
      const frame = byId.get(frameId)!.callFrame
      const place = placeOf(frame.url, frame.functionName)
      if (!seen.has(place)) {
        seen.add(place)
        add(inclusive, place, us)
      }
      const call = nameOf(frame)
      if (!seenCalls.has(call)) {
        seenCalls.add(call)
        add(calls, call, us)
      }
    }
  })
  const sorted = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, us]) => [key, Math.round(us / 100) / 10] as [string, number])
  return {
    totalMs: Math.round(total / 1000),
    busyMs: Math.round((total - idle) / 1000),
    self: sorted(self, top),
    inclusive: sorted(inclusive, top),
    functions: sorted(functions, top),
    calls: sorted(calls, top * 2),
  }
}

/** The summary as text; with `per` (the requests served), each figure also in µs a request. */
export function printSummary(summary: ProfileSummary, per?: number): void {
  const perRequest = (ms: number) => (per ? `  ${String(Math.round((ms * 1000) / per)).padStart(6)} µs/req` : '')
  console.log(`Samples: ${summary.totalMs} ms, ${summary.busyMs} ms not idle${perRequest(summary.busyMs)}`)
  for (const [title, rows] of [
    ['Self time by place', summary.self],
    ['Inclusive time by place (callees included)', summary.inclusive],
    ['Self time by function', summary.functions],
    ['Inclusive time by function (callees included)', summary.calls],
  ] as const) {
    console.log(`\n${title}`)
    for (const [name, ms] of rows) console.log(`${String(ms).padStart(9)} ms${perRequest(ms)}  ${name}`)
  }
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2)
  if (!file) throw new Error('usage: npx tsx bench/cpuProfile.ts <file.cpuprofile> [top]')
  printSummary(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 30)))
}
