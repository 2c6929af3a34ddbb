import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { PHOTO_ID_PATTERN } from '../../../contract/constants'
import type { Database, Queryable } from './database'
import { readBytesFromRow } from './photos'

/**
 * Where a photo's bytes live; the photos table keeps the rest (order, type, size, return). On
 * PostgreSQL the bytes stay in the row, since replicas share the server and not a disk. On PGlite
 * they are a file under DATA_DIR/photos: PGlite runs on the main thread, so writing or reading
 * megabytes through it would hold up every other request for seconds; files are written and read
 * on libuv's threads (see docs/decisions/0037-photo-storage.md).
 */
export interface PhotoStore {
  /**
   * Takes a new photo's bytes before its row is written. The answer says what the row's `bytes`
   * column holds (the bytes, or null when they are kept elsewhere); once the row's transaction is
   * over, `settle` says whether it committed: if not, the bytes go.
   */
  put(id: string, bytes: Uint8Array): Promise<StagedPhoto>
  /**
   * The photo's bytes; `inRow` is how many its row holds (null: none, they are kept elsewhere).
   * Null when there are none (the photo was deleted meanwhile).
   */
  read(db: Queryable, id: string, inRow: number | null): Promise<Uint8Array | null>
  /** Removes the bytes of photos whose rows were deleted. */
  delete(ids: readonly string[]): Promise<void>
  /**
   * Removes bytes whose rows are gone without a `delete` (rows deleted by a cascade: orders an
   * import no longer lists, or a shop deleted), and what a crash left half written. Answers how many.
   */
  sweep(db: Queryable): Promise<number>
}

export interface StagedPhoto {
  column: Uint8Array | null
  settle(committed: boolean): Promise<void>
}

/** The bytes in the row: nothing to keep apart, nothing to sweep. */
export const databasePhotoStore: PhotoStore = {
  put: (_id, bytes) => Promise.resolve({ column: bytes, settle: async () => {} }),
  read: async (db, id, inRow) => (inRow === null ? null : readBytesFromRow(db, id, inRow)),
  delete: async () => {},
  sweep: () => Promise.resolve(0),
}

const TEMPORARY = /^([A-Za-z0-9_-]{22})\.[0-9a-f]+\.tmp$/

const missing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'

function checkedId(id: string): string {
  // The id names a file: nothing but the 22 characters an upload's id has (no '/', no '..').
  if (!PHOTO_ID_PATTERN.test(id)) throw new Error(`not a photo id: ${JSON.stringify(id)}`)
  return id
}

/**
 * Each photo a file named by its id in `dir`. A file is written whole under a temporary name,
 * flushed to the disk and then renamed, so a crash leaves either the whole photo or a temporary
 * file (the next sweep removes it), never half a photo under its id.
 */
export class FilePhotoStore implements PhotoStore {
  /** Photos written whose rows are not committed yet: a sweep running meanwhile leaves them. */
  private readonly pending = new Set<string>()

  private constructor(readonly dir: string) {}

  /** The store in `dir`, created (for this user only) when missing. */
  static async open(dir: string): Promise<FilePhotoStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    return new FilePhotoStore(dir)
  }

  private path(id: string): string {
    return join(this.dir, checkedId(id))
  }

  async put(id: string, bytes: Uint8Array): Promise<StagedPhoto> {
    const path = this.path(id)
    this.pending.add(id)
    try {
      await this.writeWhole(path, bytes)
    } catch (error) {
      this.pending.delete(id)
      throw error
    }
    return {
      column: null,
      settle: async (committed) => {
        try {
          if (!committed) await this.removeFile(path)
        } finally {
          this.pending.delete(id)
        }
      },
    }
  }

  private async writeWhole(path: string, bytes: Uint8Array): Promise<void> {
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`
    try {
      const file = await open(temporary, 'wx', 0o600)
      try {
        await file.writeFile(bytes)
        await file.sync()
      } finally {
        await file.close()
      }
      await rename(temporary, path)
    } catch (error) {
      await this.removeFile(temporary)
      throw error
    }
    // The rename itself reaches the disk with the directory's entry (where a directory can be
    // opened at all: not on Windows, where the rename is all there is).
    await open(this.dir, 'r').then(
      async (dir) => {
        try {
          await dir.sync()
        } finally {
          await dir.close()
        }
      },
      () => {},
    )
  }

  async read(db: Queryable, id: string, inRow: number | null): Promise<Uint8Array | null> {
    // A row written before the bytes moved out (migration 6) still holds them.
    if (inRow !== null) return readBytesFromRow(db, id, inRow)
    try {
      return await readFile(this.path(id))
    } catch (error) {
      if (missing(error)) return null
      throw error
    }
  }

  async delete(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.removeFile(this.path(id))
  }

  private async removeFile(path: string): Promise<void> {
    try {
      await unlink(path)
    } catch (error) {
      if (!missing(error)) throw error
    }
  }

  async sweep(db: Queryable): Promise<number> {
    // Listed first, rows read after: a photo listed was being written before the listing, so by
    // the time the rows are read its row is there, or it is still pending (and left alone), or its
    // transaction failed and `settle` removes it anyway.
    const names = await readdir(this.dir)
    const pendingBefore = new Set(this.pending)
    const rows = await db.query<{ id: string }>('SELECT id FROM photos')
    const kept = new Set(rows.map((row) => row.id))
    let removed = 0
    for (const name of names) {
      const id = PHOTO_ID_PATTERN.test(name) ? name : TEMPORARY.exec(name)?.[1]
      // Anything else in the directory is not ours to remove.
      if (id === undefined) continue
      const isPhoto = id === name
      if ((isPhoto && kept.has(id)) || pendingBefore.has(id) || this.pending.has(id)) continue
      await this.removeFile(join(this.dir, name))
      removed++
    }
    return removed
  }
}

/**
 * The store for `db`: files in `dataDir`/photos on PGlite; on the in-memory PGlite the tests use
 * (no data directory), files in a temporary directory, removed by `close`; the rows on PostgreSQL.
 */
export async function openPhotoStore(
  db: Database,
  dataDir: string | undefined,
): Promise<{ store: PhotoStore; close(): Promise<void> }> {
  if (db.engine === 'postgres') return { store: databasePhotoStore, close: async () => {} }
  if (dataDir !== undefined) return { store: await FilePhotoStore.open(join(dataDir, 'photos')), close: async () => {} }
  const temporary = await mkdtemp(join(tmpdir(), 'rebound-photos-'))
  return { store: await FilePhotoStore.open(temporary), close: () => rm(temporary, { recursive: true, force: true }) }
}

/**
 * The API's store (openPhotoStore). In a data directory it is swept once before the first
 * request: files that a crash, or an import while the server was stopped, left without rows go.
 * A temporary directory (new, so nothing to sweep) goes when the API closes.
 */
export async function startPhotoStore(
  app: FastifyInstance,
  db: Database,
  dataDir: string | undefined,
): Promise<PhotoStore> {
  const opened = await openPhotoStore(db, dataDir)
  const { store } = opened
  app.addHook('onClose', () => opened.close())
  if (dataDir !== undefined) await store.sweep(db)
  return store
}
