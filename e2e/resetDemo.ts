import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Puts a demo shop back as its file has it, on a running server started with ADMIN_TOKEN: the shop
 * is deleted whole (DELETE /admin/shops/{shop}, its returns included; an import alone keeps them,
 * docs/decisions/0072-import-keeps-returns.md), then imported again (POST /admin/shops).
 */
export async function resetDemoShop(origin: string, token: string, fileName: 'demo.json' | 'acme.json') {
  const body = readFileSync(join(__dirname, '../server/demo', fileName), 'utf8')
  const { shop } = JSON.parse(body) as { shop: string }
  const headers = { authorization: `Bearer ${token}` }
  const deleted = await fetch(`${origin}/admin/shops/${shop}`, { method: 'DELETE', headers })
  if (deleted.status !== 204 && deleted.status !== 404)
    throw new Error(`deleting ${shop}: ${deleted.status} ${await deleted.text()}`)
  const imported = await fetch(`${origin}/admin/shops`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  })
  if (imported.status !== 201) throw new Error(`re-importing ${fileName}: ${imported.status} ${await imported.text()}`)
}
