import { matchPath } from 'react-router-dom'
import { stepAt } from '../features/returnFlow/navigation'
import { paths } from '../../contract/paths'

test.each([
  ['a return id and signature', ['r-1', 'sig_-A1'], '/status/r-1#sig_-A1'],
  ['the session’s language in the query', ['r-1', 'sig', 'de-AT'], '/status/r-1?lang=de-AT#sig'],
  ['characters that would leave the path or fragment encoded', ['a/b?c', 'x#y'], '/status/a%2Fb%3Fc#x%23y'],
])('paths.status.build with %s', (_name, args, expected) => {
  expect(paths.status.build(...(args as [string, string, string?]))).toBe(expected)
})

test('the status page is no step of the flow: it needs no session, and its link matches its pattern', () => {
  expect(stepAt('/status/r-1')).toBeNull()
  expect(matchPath(paths.status.pattern, '/status/r-1')?.params.id).toBe('r-1')
})
