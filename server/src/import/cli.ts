/**
 * npm run import-shop -- shop.json [more.json …]
 * Loads shops into DATABASE_URL or the PGlite directory DATA_DIR (./data). Each file is checked
 * whole first: an invalid one is rejected with errors naming its fields, and changes nothing.
 */
import { readFileSync } from 'node:fs'
import { claimDataDir } from '../storage/dataDirLock'
import { openDatabase } from '../storage/database'
import { migrate } from '../storage/migrations'
import { openPhotoStore } from '../storage/photoStore'
import { loadSecret } from '../storage/secret'
import { importShop, type ImportResult } from './importShop'
import { readSettings } from '../settings'

async function main(files: string[]) {
  if (files.length === 0) {
    console.error(
      'Usage: npm run import-shop -- shop.json [more.json …]   (DATA_DIR or DATABASE_URL picks the database)',
    )
    return 2
  }
  // The same settings as the server's, read and checked the same way.
  const {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: allowPrivateNetworks,
    TOKEN_SECRET: tokenSecret,
  } = readSettings()
  const release = databaseUrl ? () => {} : await claimDataDir(dataDir)
  const db = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir })
  let failed = 0
  try {
    await migrate(db)
    // Seals a file's store connection key (decision 0075), as the server would.
    const secret = await loadSecret(db, tokenSecret)
    // The photos of the orders a file no longer lists are deleted with them: their files too (PGlite).
    const { store: photos } = await openPhotoStore(db, databaseUrl ? undefined : dataDir)
    for (const file of files) {
      let input: unknown
      try {
        input = JSON.parse(readFileSync(file, 'utf8'))
      } catch (error) {
        console.error(`${file}: cannot be read as JSON: ${(error as Error).message}`)
        failed++
        continue
      }
      const result = await importShop(db, input, new Date(), photos, { allowPrivateNetworks, secret })
      if (result.ok) console.log(`${file}: ${importSummary(result)}`)
      else {
        failed++
        console.error(
          `${file}: rejected, nothing was changed:\n${result.errors.map((error) => `  - ${error}`).join('\n')}`,
        )
      }
    }
  } finally {
    await db.close()
    release()
  }
  return failed > 0 ? 1 : 0
}

/** "shop north imported: 4 orders (1 added, 3 updated); 2 removed; kept for their returns: #1003" */
function importSummary(result: Extract<ImportResult, { ok: true }>): string {
  const orders = `${result.orders} order${result.orders === 1 ? '' : 's'}`
  const parts = [`shop ${result.shop} imported: ${orders} (${result.added} added, ${result.updated} updated)`]
  if (result.removed > 0) parts.push(`${result.removed} no longer in the file removed`)
  if (result.kept.length > 0) parts.push(`kept for their returns: ${result.kept.join(', ')}`)
  return parts.join('; ')
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  },
)
