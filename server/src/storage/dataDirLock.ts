import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const LOCK = '.rebound.pid'

/**
 * How long a holder that still looks alive is watched before the directory is refused. A process
 * killed a moment ago (kill -9, then an immediate restart) may still be releasing its memory
 * before it ends; a holder that really runs only makes a start that fails anyway fail later.
 */
const HOLDER_WAIT_MS = 3_000
const POLL_MS = 100

/** Linux's USER_HZ, the unit of a start time in /proc/<pid>/stat: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100

/**
 * How much later than the pid file a process may seem to have started and still be the one that
 * wrote it: a start time is counted in ticks of 10 ms, and some file systems keep a file's time to
 * the one or two seconds only.
 */
const START_SLACK_MS = 2_000

export interface ProcessStat {
  /** R running, S sleeping, D waiting on a disk, Z zombie (ended, not yet reaped by its parent), … */
  state: string
  /** when the process started, in clock ticks since the machine booted */
  startTicks: number
}

/** The state and start of a process from /proc/<pid>/stat, or null: no such process, or no /proc (not Linux). */
export function readProcessStat(pid: number): ProcessStat | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // "pid (comm) state ppid …": comm may hold spaces and ")", so the fields are counted after the last ")".
  // The state is the 3rd field and the start time the 22nd: 0 and 19 after comm.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const state = fields[0]
  const startTicks = Number(fields[19])
  if (!state || !Number.isInteger(startTicks)) return null
  return { state, startTicks }
}

/** When a process started, in milliseconds since 1970, from its start in ticks since boot; null without /proc. */
export function startedAt(startTicks: number): number | null {
  try {
    // Seconds since boot, on the same clock as the start times.
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0])
    if (!Number.isFinite(uptime)) return null
    return Date.now() - (uptime * 1000 - (startTicks * 1000) / CLOCK_TICKS_PER_SECOND)
  } catch {
    return null
  }
}

/** Whether a signal could reach the process: true for a live one, and for a zombie too. */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether the process named by a pid file written at `writtenAt` (ms since 1970) still holds it.
 * Not when it has ended, even if its parent has not reaped it yet (a zombie, which signals still
 * reach); and not when the pid now belongs to a process that started after the file was written:
 * the holder ended and the pid was given to another, as after a container's restart, where the
 * same small pids come round again.
 */
function holds(pid: number, writtenAt: number): boolean {
  if (!signalable(pid)) return false
  const stat = readProcessStat(pid)
  // Without /proc (not Linux) the signal is all there is to go by.
  if (stat === null) return true
  if (stat.state === 'Z' || stat.state === 'X') return false
  const started = startedAt(stat.startTicks)
  return started === null || started <= writtenAt + START_SLACK_MS
}

/** The process holding a PGlite directory, or null; PGlite allows one process per directory. */
export function holderOf(dataDir: string): number | null {
  try {
    const path = join(dataDir, LOCK)
    const writtenAt = statSync(path).mtimeMs
    const pid = Number(readFileSync(path, 'utf8'))
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && holds(pid, writtenAt) ? pid : null
  } catch {
    return null
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Claims the directory for this process; rejects when another live process holds it. A holder
 * that still looks alive is watched for `waitMs` first, in case it is ending.
 */
export async function claimDataDir(
  dataDir: string,
  { waitMs = HOLDER_WAIT_MS }: { waitMs?: number } = {},
): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true })
  const deadline = Date.now() + waitMs
  let holder = holderOf(dataDir)
  while (holder !== null && Date.now() < deadline) {
    await sleep(POLL_MS)
    holder = holderOf(dataDir)
  }
  if (holder !== null)
    throw new Error(
      `${dataDir} is in use by process ${holder}; stop it first (PGlite allows one process per directory)`,
    )
  writeFileSync(join(dataDir, LOCK), String(process.pid))
  return () => rmSync(join(dataDir, LOCK), { force: true })
}
