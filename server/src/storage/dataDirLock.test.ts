import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claimDataDir, holderOf, readProcessStat, startedAt } from './dataDirLock'

// /proc is Linux's: elsewhere the lock has only a signal to go by.
const onLinux = process.platform === 'linux' ? describe : describe.skip

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Well under the wait for a holder that looks alive: a claim this quick did not wait. */
const NO_WAIT_MS = 1_000

let dir: string
let children: ChildProcess[]
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rebound-lock-'))
  children = []
})
afterEach(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await gone
    }
  }
  rmSync(dir, { recursive: true, force: true })
})

const pidFile = () => join(dir, '.rebound.pid')
/** A pid file naming `pid`, written now or, with `writtenAt`, dated then. */
function lockedBy(pid: number, writtenAt?: Date) {
  writeFileSync(pidFile(), String(pid))
  if (writtenAt) utimesSync(pidFile(), writtenAt, writtenAt)
}

function sleeper(seconds = 30): ChildProcess {
  const child = spawn('sleep', [String(seconds)], { stdio: 'ignore' })
  children.push(child)
  return child
}

/**
 * A real zombie: the shell starts `sleep 1` and then becomes `sleep 6` (exec), which never reaps
 * the child it inherits, so that child stays a zombie once it has ended. The child outlives the
 * exec: one that ended first could be reaped by the shell itself (CI saw it once with `sleep 0`).
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 6'], { stdio: ['ignore', 'pipe', 'ignore'] })
  children.push(parent)
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  )
  for (const deadline = Date.now() + 4_000; readProcessStat(pid)?.state !== 'Z';) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not become a zombie`)
    await sleep(20)
  }
  return pid
}

onLinux('readProcessStat and startedAt (/proc/<pid>/stat)', () => {
  test('this process: running or sleeping, started when Node says it did', () => {
    const stat = readProcessStat(process.pid)
    expect(stat).not.toBeNull()
    expect(['R', 'S']).toContain(stat!.state)
    const expected = Date.now() - process.uptime() * 1000
    expect(Math.abs(startedAt(stat!.startTicks)! - expected)).toBeLessThan(1_000)
  })

  test('a command name with spaces and parentheses does not shift the fields', async () => {
    // The command name is the file's: `sleep` under a name that looks like the end of one.
    const odd = join(dir, 'a) R 1 (b')
    symlinkSync(execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim(), odd)
    const child = spawn(odd, ['30'], { stdio: 'ignore' })
    children.push(child)
    await sleep(200)
    const stat = readProcessStat(child.pid!)
    expect(stat?.state).toBe('S')
    expect(Math.abs(startedAt(stat!.startTicks)! - Date.now())).toBeLessThan(2_000)
  })

  test('a zombie reads as state Z, and a process that is gone as null', async () => {
    expect(readProcessStat(await zombie())?.state).toBe('Z')
    const ended = spawn('true', [], { stdio: 'ignore' })
    await new Promise((resolve) => ended.once('exit', resolve))
    expect(readProcessStat(ended.pid!)).toBeNull()
  })
})

onLinux('the data directory lock', () => {
  test('a live process that wrote the pid file holds the directory: refused after a wait, naming it, and the file is kept', async () => {
    const holder = sleeper()
    lockedBy(holder.pid!)
    expect(holderOf(dir)).toBe(holder.pid)
    const begun = Date.now()
    await expect(claimDataDir(dir, { waitMs: 500 })).rejects.toThrow(
      `${dir} is in use by process ${holder.pid}; stop it first`,
    )
    expect(Date.now() - begun).toBeGreaterThanOrEqual(500)
    expect(readFileSync(pidFile(), 'utf8')).toBe(String(holder.pid))
  })

  test('a holder killed but not yet reaped by its parent (a zombie) is gone: the directory is claimed at once', async () => {
    const pid = await zombie()
    lockedBy(pid)
    expect(holderOf(dir)).toBeNull()
    const begun = Date.now()
    const release = await claimDataDir(dir)
    expect(Date.now() - begun).toBeLessThan(NO_WAIT_MS)
    expect(readFileSync(pidFile(), 'utf8')).toBe(String(process.pid))
    release()
  })

  test('a holder that ends while the claim waits: the directory is claimed then, not refused', async () => {
    const holder = sleeper()
    lockedBy(holder.pid!)
    setTimeout(() => holder.kill('SIGKILL'), 300)
    const begun = Date.now()
    const release = await claimDataDir(dir, { waitMs: 5_000 })
    expect(Date.now() - begun).toBeGreaterThanOrEqual(250)
    expect(readFileSync(pidFile(), 'utf8')).toBe(String(process.pid))
    release()
  })

  test.each([
    ['pid 1, which runs as long as the machine', () => 1],
    ['a process started after the file was written', () => sleeper().pid!],
  ])(
    'a pid file older than the process it names (the pid was given again): %s does not hold it',
    async (_name, pidOf) => {
      const pid = pidOf()
      await sleep(100)
      // Written before the process started: the holder that wrote it has ended since.
      lockedBy(pid, new Date(startedAt(readProcessStat(pid)!.startTicks)! - 60_000))
      expect(holderOf(dir)).toBeNull()
      const release = await claimDataDir(dir)
      expect(readFileSync(pidFile(), 'utf8')).toBe(String(process.pid))
      release()
    },
  )

  test('a pid file naming this process, an ended one or nothing readable is no holder; release removes the file', async () => {
    const ended = spawn('true', [], { stdio: 'ignore' })
    await new Promise((resolve) => ended.once('exit', resolve))
    for (const content of [String(process.pid), String(ended.pid), 'not a pid', '-1', '']) {
      writeFileSync(pidFile(), content)
      expect(holderOf(dir)).toBeNull()
    }
    const release = await claimDataDir(dir)
    expect(readFileSync(pidFile(), 'utf8')).toBe(String(process.pid))
    release()
    expect(() => readFileSync(pidFile())).toThrow(/ENOENT/)
  })
})
