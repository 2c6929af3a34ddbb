import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SERVER_DIR } from '../serverDir'
import type { Database } from '../storage/database'
import { hasShops } from '../storage/shops'
import { importShop } from './importShop'

/** The demo shops of docs/rules.md §14, in the import format. */
export const DEMO_SHOP_FILES = ['demo.json', 'acme.json'].map((name) => join(SERVER_DIR, 'demo', name))

export function readDemoShop(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** On a database without shops (the first start), loads the demo shops; otherwise does nothing. */
export async function seedDemoShops(db: Database, now = new Date()): Promise<string[]> {
  if (await hasShops(db)) return []
  const loaded: string[] = []
  for (const path of DEMO_SHOP_FILES) {
    const result = await importShop(db, readDemoShop(path), now)
    if (!result.ok) throw new Error(`The demo shop ${path} is invalid:\n${result.errors.join('\n')}`)
    loaded.push(result.shop)
  }
  return loaded
}
