/**
 * The boundaries of docs/architecture.md hold by lint: each rule of eslint.config.mjs catches a
 * planted example, and lets the compliant one be. The planted text is linted under the name of an
 * existing file (lintText reads no file and writes none): the type-checked rules need a file of the
 * TypeScript project. One ESLint for every case: its TypeScript program is built once.
 */
import { ESLint } from 'eslint'
import { join } from 'node:path'
import { ROOT } from './spawned'

let eslint: ESLint
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT })
})
jest.setTimeout(180_000)

async function messages(file: string, code: string, rule: string): Promise<{ line: number; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) })
  return result!.messages.filter((message) => message.ruleId === rule).map(({ line, message }) => ({ line, message }))
}

describe('the server’s layers', () => {
  const domain = (code: string) => messages('server/src/domain/review.ts', code, 'import-x/no-restricted-paths')

  it('refuse a domain file that imports a storage SQL helper', async () => {
    expect(
      await domain(
        "import { returnStateSql } from '../storage/returnStates'\n\nexport const sql = returnStateSql('$1')\n",
      ),
    ).toEqual([{ line: 1, message: expect.stringContaining('The domain is rules alone') as string }])
  })

  it('accept a domain file that imports the domain and the contract', async () => {
    expect(
      await domain(
        "import { toMinor } from '../../../contract/money'\nimport { keepsItem } from './keepItems'\n\n" +
          "export const kept = keepsItem({ unitPaid: toMinor('9.90', 'EUR'), threshold: 1000, exchanged: false })\n",
      ),
    ).toEqual([])
  })

  const route = (code: string) => messages('server/src/routes/language.ts', code, 'import-x/no-restricted-paths')

  it('refuse a route that imports storage’s SQL helpers', async () => {
    expect(
      await route(
        "import { returnStateSql } from '../storage/returnStates'\n\nexport const sql = returnStateSql('$1')\n",
      ),
    ).toEqual([{ line: 1, message: expect.stringContaining('A route calls a service') as string }])
  })

  it('accept a route that calls a service, and the error handler’s one import of storage', async () => {
    expect(
      await route(
        "import { listShopEmails } from '../services/staffEvents'\n" +
          "import { DatabaseUnavailableError } from '../storage/unavailable'\n\n" +
          'export const used = [listShopEmails, DatabaseUnavailableError]\n',
      ),
    ).toEqual([])
  })

  it('refuse an engine adapter that reads Rebound’s rows', async () => {
    expect(
      await messages(
        'server/src/commerce/medusaEngine.ts',
        "import { findOrderById } from '../storage/orders'\n\nexport const find = findOrderById\n",
        'import-x/no-restricted-paths',
      ),
    ).toEqual([{ line: 1, message: expect.stringContaining('An engine adapter speaks to its engine alone') as string }])
  })
})

describe('a route handler', () => {
  const route = (handler: string) =>
    messages(
      'server/src/routes/language.ts',
      `import type { FastifyInstance } from 'fastify'

export function planted(app: FastifyInstance) {
  app.get('/planted', async (_request, reply) => {
    ${handler}
  })
}
`,
      'no-restricted-syntax',
    )

  it('that sets a 404 by hand is refused, saying to throw', async () => {
    expect(await route(`return reply.code(404).send({ error: 'not_found', message: 'No.' })`)).toEqual([
      { line: 5, message: expect.stringMatching(/throw a Refusal/) as string },
    ])
  })

  it('that sets reply.status(500) is refused too', async () => {
    expect(await route(`return reply.status(500).send({ error: 'internal' })`)).toHaveLength(1)
  })

  it('that throws, or answers 201, is let be', async () => {
    expect(
      await route(`if (Math.random() > 2) throw new Error('no')
    return reply.code(201).send({ ok: true })`),
    ).toEqual([])
  })
})

describe('the shop’s configuration', () => {
  it('may import from src/app but not from the return flow', async () => {
    expect(
      await messages(
        'src/shop/useShopConfig.ts',
        [
          "import { configIdFor } from '../features/returnFlow/location'",
          "import { useAppDispatch } from '../app/hooks'",
          'export const used = [configIdFor, useAppDispatch]',
          '',
        ].join('\n'),
        'import-x/no-restricted-paths',
      ),
    ).toEqual([{ line: 1, message: expect.stringMatching(/below the return flow/) as string }])
  })
})

describe('the back office', () => {
  it('may import from src/components but not from a portal feature', async () => {
    expect(
      await messages(
        'src/admin/index.tsx',
        [
          "import { useT } from '../features/start/StartScreen'",
          "import { checkPhotoFile } from '../components/preparePhoto'",
          'export const used = [useT, checkPhotoFile]',
          '',
        ].join('\n'),
        'import-x/no-restricted-paths',
      ),
    ).toEqual([{ line: 1, message: expect.stringMatching(/back office/) as string }])
  })
})
