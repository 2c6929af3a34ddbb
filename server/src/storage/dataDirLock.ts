import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const LOCK = '.rebound.pid'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The process holding a PGlite directory, or null; PGlite allows one process per directory. */
export function holderOf(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, LOCK), 'utf8'))
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null
  } catch {
    return null
  }
}

/** Claims the directory for this process; throws when another live process holds it. */
export function claimDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true })
  const holder = holderOf(dataDir)
  if (holder !== null) throw new Error(`${dataDir} is in use by process ${holder}; stop it first (PGlite allows one process per directory)`)
  writeFileSync(join(dataDir, LOCK), String(process.pid))
  return () => rmSync(join(dataDir, LOCK), { force: true })
}
