import { ESLint } from 'eslint'
import { join } from 'node:path'

/**
 * The lint rule of eslint.config.mjs for server/src/routes/: a handler that sets an error status by
 * hand is refused with a message that says to throw. The planted code is linted as an existing
 * route file's text: the type-checked rules need a file of the TypeScript project.
 */
const ROOT = join(__dirname, '..', '..')
const PLANTED_PATH = join(ROOT, 'server/src/routes/language.ts')

async function restricted(code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT })
  const [result] = await eslint.lintText(code, { filePath: PLANTED_PATH })
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-syntax')
    .map((message) => message.message)
}

const planted = (handler: string) => `import type { FastifyInstance } from 'fastify'

export function planted(app: FastifyInstance) {
  app.get('/planted', async (_request, reply) => {
    ${handler}
  })
}
`

describe('the routes lint rule', () => {
  it('refuses a 404 set by hand, saying to throw', async () => {
    const messages = await restricted(planted(`return reply.code(404).send({ error: 'not_found', message: 'No.' })`))
    expect(messages).toEqual([expect.stringMatching(/throw a Refusal/)])
  }, 120_000)

  it('refuses reply.status(500) too', async () => {
    expect(await restricted(planted(`return reply.status(500).send({ error: 'internal' })`))).toHaveLength(1)
  }, 120_000)

  it('lets a handler that throws, or answers 201, be', async () => {
    const messages = await restricted(
      planted(`if (Math.random() > 2) throw new Error('no')
    return reply.code(201).send({ ok: true })`),
    )
    expect(messages).toEqual([])
  }, 120_000)
})
