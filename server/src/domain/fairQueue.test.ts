import { FairQueue, type QueueLimits, type Turn } from './fairQueue'

/** A job that runs until told to finish, and says when it started. */
function job(name: string, log: string[]) {
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  return {
    work: async () => {
      log.push(`start ${name}`)
      await done
      log.push(`end ${name}`)
      return name
    },
    finish,
  }
}

const settled = () => new Promise((resolve) => setImmediate(resolve))

function queue(limits: Partial<QueueLimits> = {}) {
  return new FairQueue({ atOnce: 1, waiting: 10, perClient: 5, ...limits }, 2_000)
}

describe('FairQueue', () => {
  test('a second client’s job runs at the next free place, before the first client’s four still waiting', async () => {
    const log: string[] = []
    const fair = queue()
    const a = [1, 2, 3, 4, 5].map((n) => job(`a${n}`, log))
    const runs: Promise<Turn<string>>[] = a.map((one) => fair.run('a', one.work))
    const b = job('b', log)
    runs.push(fair.run('b', b.work))
    expect(fair.load('a')).toEqual({ running: 1, waiting: 4 })
    for (const one of [a[0]!, b, ...a.slice(1)]) {
      await settled()
      one.finish()
    }
    expect((await Promise.all(runs)).map((turn) => turn.ok && turn.value)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b'])
    expect(log.filter((line) => line.startsWith('start'))).toEqual([
      'start a1',
      'start b',
      'start a2',
      'start a3',
      'start a4',
      'start a5',
    ])
    expect(fair.load()).toEqual({ running: 0, waiting: 0 })
  })

  test('clients take turns: a, b, c, a, b, c while each has jobs waiting', async () => {
    const log: string[] = []
    const fair = queue({ atOnce: 1 })
    const first = job('first', log)
    const runs = [fair.run('x', first.work)]
    const jobs = ['a1', 'a2', 'b1', 'b2', 'c1', 'c2'].map((name) => ({ name, ...job(name, log) }))
    runs.push(...jobs.map((one) => fair.run(one.name[0]!, one.work)))
    first.finish()
    for (const name of ['a1', 'b1', 'c1', 'a2', 'b2', 'c2']) {
      await settled()
      expect(log.at(-1)).toBe(`start ${name}`)
      jobs.find((one) => one.name === name)!.finish()
    }
    await Promise.all(runs)
  })

  test.each([
    ['the queue is full', { waiting: 2, perClient: 10 }, ['a', 'b', 'c', 'd'], 'queue_full'],
    ['the client has its share', { waiting: 10, perClient: 3 }, ['a', 'a', 'a', 'a'], 'client_full'],
  ] as const)('when %s a job is refused at once with a retry-after', async (_name, limits, clients, problem) => {
    const log: string[] = []
    const fair = queue(limits)
    const jobs = clients.map((client, n) => ({ client, ...job(`${client}${n}`, log) }))
    const runs = jobs.map((one) => fair.run(one.client, one.work))
    expect(await runs.at(-1)).toEqual({ ok: false, problem, retryAfterSeconds: expect.any(Number) as number })
    jobs.forEach((one) => one.finish())
    expect((await Promise.all(runs.slice(0, -1))).every((turn) => turn.ok)).toBe(true)
    // Another client still gets in once the jobs are done.
    expect(await fair.run('z', () => Promise.resolve('z'))).toEqual({ ok: true, value: 'z' })
  })

  test('retry-after grows with the jobs waiting: about their turns at the time a job has taken', async () => {
    const fair = queue({ atOnce: 1, waiting: 3, perClient: 10 })
    const jobs = [1, 2, 3, 4].map((n) => job(String(n), []))
    const runs = jobs.map((one) => fair.run('a', one.work))
    // 3 waiting, 2 s a job (the queue's first guess): 4 turns of 2 s.
    expect(await fair.run('b', () => Promise.resolve('b'))).toMatchObject({ ok: false, retryAfterSeconds: 8 })
    jobs.forEach((one) => one.finish())
    await Promise.all(runs)
  })

  test('a waiting job whose client went away never runs, and its place goes to the next', async () => {
    const log: string[] = []
    const fair = queue()
    const running = job('running', log)
    const gone = job('gone', log)
    const next = job('next', log)
    const leaving = new AbortController()
    const runs = [fair.run('a', running.work), fair.run('b', gone.work, leaving.signal), fair.run('c', next.work)]
    leaving.abort()
    expect(await runs[1]).toMatchObject({ ok: false, problem: 'abandoned' })
    expect(fair.load()).toEqual({ running: 1, waiting: 1 })
    running.finish()
    next.finish()
    await Promise.all(runs)
    expect(log).not.toContain('start gone')
  })
})
