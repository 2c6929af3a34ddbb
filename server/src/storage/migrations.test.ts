import { createHash } from 'node:crypto'
import { MIGRATIONS } from './migrations'

/**
 * The first 16 hex digits of the SHA-256 of each migration's SQL as released. A released
 * migration never changes: a database that ran it keeps what it did, so changing its text (or a
 * function it was built from) would leave old and new databases apart. A new migration adds its
 * line here in the commit that adds it.
 */
const RELEASED: Record<number, string> = {
  1: 'be2d4a96b79c07ca',
  2: '4ad7269c1dabc2c4',
  3: '7ae5cbd7293d6752',
  4: '1b544d0788d67266',
  5: 'c8bdcd40c79a53ee',
  6: 'c0dbffa5288ea4ea',
  7: '8ed106bbebc16d2b',
  8: '11492d1160d28ebe',
  9: '80eac195835d1bfe',
  10: 'b21ce4e5550c170b',
  11: 'a514549cb7aa76b2',
  12: '3f98d5093e25db56',
  13: 'c9ce069ee05bf102',
  14: '31d58d592512f5b9',
  15: '6494350309ce2bf8',
  16: '6fd59958cd8d6f6c',
  17: '4e4a827f9b158a37',
  18: '6de6929fe1a95260',
  19: 'f3a74ea5dd3b45d3',
  20: 'f3ed8c0a24a45e34',
  21: '3fb484d887113c06',
  22: '4c1084700a81c57c',
  23: '3f4b9ea1f5409f45',
  24: '747dfb10cbd22267',
  25: 'ced6ccb0ef73b73a',
  26: 'd7f3876fba1e7056',
}

const digest = (sql: string) => createHash('sha256').update(sql).digest('hex').slice(0, 16)

test('every migration is pinned, numbered in order, and unchanged since it was released', () => {
  expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1))
  expect(Object.fromEntries(MIGRATIONS.map((migration) => [migration.version, digest(migration.sql)]))).toEqual(
    RELEASED,
  )
})
