import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Queryable } from './database'
import { databasePhotoStore, FilePhotoStore } from './photoStore'

const newId = () => randomBytes(16).toString('base64url')

/** The photos table as the sweep reads it: these ids have rows. */
const rowsOf = (ids: () => readonly string[]): Queryable => ({
  query: <Row>() => Promise.resolve(ids().map((id) => ({ id })) as Row[]),
  exec: () => Promise.resolve(),
})

/** A photos table with one row holding `bytes` (as rows did before migration 6), read in slices. */
const rowHolding = (bytes: Buffer): Queryable & { queries: number } => {
  const db = {
    queries: 0,
    query: <Row>(_sql: string, params?: unknown[]) => {
      db.queries++
      const [, from, length] = params as [string, number, number]
      return Promise.resolve([{ part: bytes.subarray(from - 1, from - 1 + length) }] as Row[])
    },
    exec: () => Promise.resolve(),
  }
  return db
}
const noRows = rowsOf(() => [])

let root: string
let dir: string
let store: FilePhotoStore
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'rebound-photo-store-'))
  dir = join(root, 'photos')
  store = await FilePhotoStore.open(dir)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('the file store, in a real directory', () => {
  test('creates its directory, for this user only', () => {
    expect(statSync(dir).isDirectory()).toBe(true)
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700)
  })

  test('put keeps the bytes in a file named by the id (nothing in the row), read gives them back, delete removes them', async () => {
    const id = newId()
    const bytes = randomBytes(1000)
    const staged = await store.put(id, bytes)
    expect(staged.column).toBeNull()
    await staged.settle(true)
    expect(readFileSync(join(dir, id))).toEqual(bytes)
    expect(Buffer.from((await store.read(noRows, id, null))!)).toEqual(bytes)
    await store.delete([id])
    expect(existsSync(join(dir, id))).toBe(false)
    expect(await store.read(noRows, id, null)).toBeNull()
    // Deleting what is already gone is no error: a sweep may have been first.
    await expect(store.delete([id])).resolves.toBeUndefined()
  })

  test('a row written before the bytes moved out still holds them, and they are read from it, a slice at a time', async () => {
    const inRow = randomBytes(600 * 1024)
    const db = rowHolding(inRow)
    expect(Buffer.from((await store.read(db, newId(), inRow.byteLength))!).equals(inRow)).toBe(true)
    // 256 KB a query: the main thread decodes a little at a time.
    expect(db.queries).toBe(3)
  })

  test('a put whose row is not committed leaves nothing behind', async () => {
    const id = newId()
    const staged = await store.put(id, randomBytes(100))
    await staged.settle(false)
    expect(readdirSync(dir)).toEqual([])
  })

  test('an id that is not an upload’s cannot name a file outside the directory', async () => {
    await expect(store.put('../../etc/passwd', Buffer.from('x'))).rejects.toThrow('not a photo id')
    await expect(store.read(noRows, '../secret', null)).rejects.toThrow('not a photo id')
    expect(readdirSync(root)).toEqual(['photos'])
  })

  test('a photo is never seen half written under its id: it is written under another name and renamed whole', async () => {
    const id = newId()
    const bytes = randomBytes(32 * 1024 * 1024)
    const path = join(dir, id)
    const seen = new Set<number>()
    let names = new Set<string>()
    let writing = true
    // Looks between the write's steps (they run on libuv's threads) at what the directory shows.
    const watch = (async () => {
      while (writing) {
        if (existsSync(path)) seen.add(statSync(path).size)
        for (const name of readdirSync(dir)) names.add(name)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const staged = await store.put(id, bytes)
    writing = false
    await watch
    await staged.settle(true)
    expect([...seen].filter((size) => size !== bytes.byteLength)).toEqual([])
    names = new Set([...names].filter((name) => name !== id))
    for (const name of names) expect(name).toMatch(new RegExp(`^${id}\\.[0-9a-f]+\\.tmp$`))
    expect(readdirSync(dir)).toEqual([id])
  })

  test('a write that fails leaves neither the photo nor its temporary file', async () => {
    const id = newId()
    // Something (a directory) already where the photo would go: the rename fails.
    mkdirSync(join(dir, id))
    await expect(store.put(id, randomBytes(100))).rejects.toThrow()
    expect(readdirSync(dir)).toEqual([id])
    expect(statSync(join(dir, id)).isDirectory()).toBe(true)
  })

  test('what a crash leaves (a temporary file) is never read as the photo, and the next sweep removes it', async () => {
    const id = newId()
    writeFileSync(join(dir, `${id}.0a1b2c.tmp`), randomBytes(10))
    expect(await store.read(noRows, id, null)).toBeNull()
    expect(await store.sweep(noRows)).toBe(1)
    expect(readdirSync(dir)).toEqual([])
  })

  test('the sweep removes files whose rows are gone, and keeps those with rows, those being written, and what is not ours', async () => {
    const kept = newId()
    const orphan = newId()
    const writing = newId()
    for (const id of [kept, orphan]) await (await store.put(id, Buffer.from(id))).settle(true)
    // Its transaction has not committed yet: no row, but not an orphan either.
    const staged = await store.put(writing, Buffer.from(writing))
    writeFileSync(join(dir, 'README.txt'), 'an operator’s note')
    expect(await store.sweep(rowsOf(() => [kept]))).toBe(1)
    expect(readdirSync(dir).sort()).toEqual([kept, writing, 'README.txt'].sort())
    await staged.settle(true)
    // Committed now: its row is read by the next sweep, which keeps it.
    expect(await store.sweep(rowsOf(() => [kept, writing]))).toBe(0)
    expect(readdirSync(dir).sort()).toEqual([kept, writing, 'README.txt'].sort())
  })

  test('a photo whose row commits while the sweep reads the rows is kept', async () => {
    const id = newId()
    const staged = await store.put(id, Buffer.from('late'))
    const rows: string[] = []
    // The sweep lists the directory while the photo is pending; its row commits, and the photo
    // settles, before the sweep's rows arrive (read before the commit, so without it).
    const racing: Queryable = {
      query: async <Row>() => {
        const seen = rows.map((row) => ({ id: row }))
        rows.push(id)
        await staged.settle(true)
        return seen as Row[]
      },
      exec: async () => {},
    }
    expect(await store.sweep(racing)).toBe(0)
    expect(readdirSync(dir)).toEqual([id])
  })
})

describe('the database store (PostgreSQL)', () => {
  test('keeps the bytes in the row, reads them from it, and has nothing of its own to delete or sweep', async () => {
    const bytes = randomBytes(300 * 1024)
    const staged = await databasePhotoStore.put(newId(), bytes)
    expect(staged.column).toBe(bytes)
    await staged.settle(false)
    expect(
      Buffer.from((await databasePhotoStore.read(rowHolding(bytes), newId(), bytes.byteLength))!).equals(bytes),
    ).toBe(true)
    await databasePhotoStore.delete([newId()])
    expect(await databasePhotoStore.sweep(noRows)).toBe(0)
  })
})
