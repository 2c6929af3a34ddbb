import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/**
 * The back office (docs/back-office.md) takes nothing from the portal's features: eslint.config.mjs
 * says so in its `import-x/no-restricted-paths` zones. ESLint runs as a process of its own (its
 * flat config is an ES module), on a text given as a file of src/admin.
 */
const root = join(__dirname, '..')

interface LintMessage {
  ruleId: string | null
  line: number
  message: string
}

function lintAs(filename: string, text: string): LintMessage[] {
  const output = (() => {
    try {
      return execFileSync(
        process.execPath,
        [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', filename, '--format', 'json'],
        { cwd: root, input: text, encoding: 'utf8' },
      )
    } catch (error) {
      // ESLint exits 1 when it found a problem, with its report on stdout all the same.
      const stdout = (error as { stdout?: unknown }).stdout
      if (typeof stdout === 'string' && stdout.startsWith('[')) return stdout
      throw error
    }
  })()
  return (JSON.parse(output) as { messages: LintMessage[] }[]).flatMap((result) => result.messages)
}

test('src/admin may import from src/components but not from src/features', () => {
  const messages = lintAs(
    'src/admin/index.tsx',
    [
      "import { useT } from '../features/start/StartScreen'",
      "import { checkPhotoFile } from '../components/preparePhoto'",
      'export const used = [useT, checkPhotoFile]',
      '',
    ].join('\n'),
  )
  const zones = messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths')
  expect(zones).toHaveLength(1)
  expect(zones[0]?.line).toBe(1)
  expect(zones[0]?.message).toMatch(/back office/)
}, 180_000)
