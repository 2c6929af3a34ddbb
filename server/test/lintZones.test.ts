/**
 * The server's layers hold by lint (docs/architecture.md): a domain file that imports storage's SQL
 * fails the zone of eslint.config.mjs; one that imports only the domain and the contract passes.
 */
import { ESLint } from 'eslint'
import { join } from 'node:path'
import { ROOT } from './spawned'

// Type-checked rules need a file of the TypeScript project: the planted text is linted under the
// name of an existing domain file (lintText reads no file and writes none).
const DOMAIN_FILE = join(ROOT, 'server/src/domain/review.ts')
const RULE = 'import-x/no-restricted-paths'

async function zoneMessages(code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT })
  const [result] = await eslint.lintText(code, { filePath: DOMAIN_FILE })
  return result!.messages.filter((message) => message.ruleId === RULE).map((message) => message.message)
}

jest.setTimeout(120_000)

it('refuses a domain file that imports a storage SQL helper', async () => {
  const messages = await zoneMessages(
    "import { returnStateSql } from '../storage/returnStates'\n\nexport const sql = returnStateSql('$1')\n",
  )
  expect(messages).toEqual([expect.stringContaining('The domain is rules alone')])
})

it('accepts a domain file that imports the domain and the contract', async () => {
  const messages = await zoneMessages(
    "import { toMinor } from '../../../contract/money'\nimport { keepsItem } from './keepItems'\n\n" +
      "export const kept = keepsItem({ unitPaid: toMinor('9.90', 'EUR'), threshold: 1000, exchanged: false })\n",
  )
  expect(messages).toEqual([])
})
