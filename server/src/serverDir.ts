import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The nearest folder at or above `from` that holds the project's package.json. */
export function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`)
  }
}

/**
 * The server's folder (server/), where its data files live (demo/). Found from the project's
 * root, not from this file's place: the server runs from its source (server/src) in development
 * and from its build (server/dist/server/src) as shipped, at different depths.
 */
export const SERVER_DIR = join(projectRoot(__dirname), 'server')
