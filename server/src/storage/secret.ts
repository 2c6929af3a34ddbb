import type { Database } from './database'
import { newSecret } from '../domain/token'

/**
 * The key that signs tokens and label links: TOKEN_SECRET when set, else one made on first start
 * and kept in the database, so every replica and every restart agree on it.
 */
export async function loadSecret(db: Database, fromEnv?: string): Promise<Buffer> {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8')
  await db.query('INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    'token',
    newSecret(),
  ])
  const [row] = await db.query<{ value: string }>('SELECT value FROM secrets WHERE name = $1', ['token'])
  return Buffer.from(row!.value, 'base64url')
}
