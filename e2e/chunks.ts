import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The build's chunk groups ('confirm', 'restore'), each with its files as the server's paths: the
 * group's own chunk and the shared chunks it needs. Later chunks are named by number in a
 * production build; dist/chunk-groups.json names each group's files (webpack.config.mjs).
 */
function chunkGroups(): Record<string, string[]> {
  const groups = JSON.parse(readFileSync(join(__dirname, '..', 'dist', 'chunk-groups.json'), 'utf8')) as Record<
    string,
    string[]
  >
  return Object.fromEntries(Object.entries(groups).map(([name, files]) => [name, files.map((file) => `/${file}`)]))
}

/** Every file a chunk group loads, its shared chunks too. */
export function chunkGroupFiles(name: string): string[] {
  const files = chunkGroups()[name]
  if (!files?.length) throw new Error(`the build has no chunk group ${name}`)
  return files
}

/**
 * The files of a chunk group that no other group loads: its own chunk (and any library only it
 * uses), so that failing them fails this group's load and nothing else's.
 */
export function ownChunkFiles(name: string): string[] {
  const groups = chunkGroups()
  const others = new Set(
    Object.entries(groups)
      .filter(([other]) => other !== name)
      .flatMap(([, files]) => files),
  )
  const own = chunkGroupFiles(name).filter((file) => !others.has(file))
  if (own.length === 0) throw new Error(`the chunk group ${name} has no file of its own`)
  return own
}

/** A page.route matcher for a chunk group's own files. */
export function ownChunkRoute(name: string): (url: URL) => boolean {
  const files = new Set(ownChunkFiles(name))
  return (url) => files.has(url.pathname)
}

/** A page.route matcher for every file of a chunk group, its shared chunks too. */
export function chunkGroupRoute(name: string): (url: URL) => boolean {
  const files = new Set(chunkGroupFiles(name))
  return (url) => files.has(url.pathname)
}
