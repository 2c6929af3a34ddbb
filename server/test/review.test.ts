import type { LightMyRequestResponse } from 'fastify'
import type {
  ReturnInstructionsAnswer,
  ReturnRequest,
  ReturnStatus,
  UploadedPhoto,
  VerifiedOrder,
} from '../../contract/api'
import type { Insights, ReturnDetail, ReturnList, ReviewDecided, ReviewQueue } from '../../contract/staff'
import { signLabel, signStatus } from '../src/domain/token'
import { addEndpoint } from '../src/storage/webhookEndpoints'
import { buildLine, buildOrder, buildProduct, buildReason, buildShop } from './builders'
import {
  bearer,
  engines,
  loadShops,
  NOW,
  startApi,
  submitted,
  type TestApi,
  verified,
  demoStaffCookie,
} from './harness'
import { photo } from './images'

/** Two tees (25.00 each): worth 50.00 together, over the 40.00 that needs review; one alone is not. */
const jane = buildOrder({
  name: '#1001',
  email: 'jane@example.com',
  line_items: [
    buildLine({ id: 'jane-tee', variant_id: 'tee-m', quantity: 2 }),
    buildLine({ id: 'jane-mug', variant_id: 'mug-default', price: '14.00' }),
  ],
})
const ben = buildOrder({
  name: '#1004',
  email: 'ben@example.com',
  line_items: [buildLine({ id: 'ben-tee', variant_id: 'tee-m', quantity: 2 })],
})
const sam = buildOrder({ name: '#1002', email: 'sam@example.com', line_items: [buildLine({ id: 'sam-tee' })] })
const sam2 = buildOrder({ name: '#1003', email: 'Sam@Example.com', line_items: [buildLine({ id: 'sam2-tee' })] })
const DEMO = buildShop({
  shop: 'demo',
  catalogue: [buildProduct(), buildProduct({ id: 'mug', title: 'Ceramic Mug', sizes: [], price: '14.00' })],
  return_reasons: [
    buildReason('changed_mind', { label: 'Changed my mind' }),
    buildReason('damaged', { label: 'Arrived damaged', photos_required: 1 }),
  ],
  orders: [jane, sam, sam2, ben],
  policy: {
    review: {
      over_amount: '40.00',
      photo_reasons: ['damaged'],
      frequent: { returns: 1, days: 30 },
      answer_within_days: 2,
    },
  },
})
const ACME = buildShop({ shop: 'acme', orders: [buildOrder({ name: '#1001', email: 'ada@example.com' })] })

const HOST = 'demo.localhost'

describe.each(engines())('returns waiting for review on %s', (engine) => {
  let api: TestApi
  let cookie: string
  let clock = NOW
  beforeAll(async () => {
    api = await startApi(engine, [], { now: () => clock })
  })
  afterAll(() => api.close())
  beforeEach(async () => {
    clock = NOW
    await api.db.exec('DELETE FROM staff; DELETE FROM shops; DELETE FROM outbox; DELETE FROM webhook_endpoints')
    await loadShops(api.db, [DEMO, ACME])
    cookie = await demoStaffCookie(api)
    // Nothing listens there: what this suite reads is what the outbox was given.
    await addEndpoint(
      api.db,
      'demo',
      {
        url: 'https://hooks.example/returns',
        secret: `whsec_${'A'.repeat(32)}`,
        events: ['return.created', 'return.updated'],
      },
      NOW,
    )
  })

  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: { host: HOST, cookie } })
  const post = (url: string, payload: Record<string, unknown>, origin = `http://${HOST}`) =>
    api.app.inject({ method: 'POST', url, headers: { host: HOST, cookie, origin }, payload })
  const decide = (payload: Record<string, unknown>) => post('/admin/api/reviews', payload)
  const instructions = (order: VerifiedOrder, id: string) =>
    api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/instructions`,
      headers: bearer(order.token),
    })
  const status = async (id: string) => {
    const response = await api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/status?signature=${signStatus(Buffer.from('test-secret'), id)}`,
    })
    expect(response.statusCode).toBe(200)
    return response.json<ReturnStatus>()
  }
  const label = (id: string) => {
    const expires = Math.floor(NOW.getTime() / 1000) + 3600
    return api.app.inject({
      method: 'GET',
      url: `/portal-registration/returns/${id}/label.pdf?expires=${expires}&signature=${signLabel(Buffer.from('test-secret'), id, expires)}`,
    })
  }
  const emails = async (id: string) =>
    (
      await api.db.query<{ kind: string }>(
        "SELECT payload ->> 'kind' AS kind FROM outbox WHERE return_id = $1 AND channel = 'email' ORDER BY seq",
        [id],
      )
    ).map((row) => row.kind)
  /** jane (or ben) returns both tees: 50.00, over the review amount. */
  const flagged = async (who = jane) => {
    const order = await verified(api.app, DEMO, who)
    const body: ReturnRequest = {
      items: [{ line_item_id: who.line_items[0]!.id, quantity: 2, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    }
    return { order, made: await submitted(api.app, order.token, body) }
  }
  const json = <T>(response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(200)
    return response.json<T>()
  }

  test('a return under every rule is made as before: no review, a label', async () => {
    const order = await verified(api.app, DEMO, jane)
    const made = await submitted(api.app, order.token, {
      items: [{ line_item_id: 'jane-tee', quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    const answer = json<ReturnInstructionsAnswer>(await instructions(order, made.id!))
    expect(answer).toHaveProperty('label_url')
    expect(answer).not.toHaveProperty('review')
    expect((await status(made.id!)).review).toBeUndefined()
    expect(json<ReturnDetail>(await get(`/admin/api/returns/${made.id}`)).review).toBeNull()
  })

  test('a return worth more than the amount waits: no label, the day of the answer, staff cannot move it', async () => {
    const { order, made } = await flagged()
    const answer = await instructions(order, made.id!)
    expect(answer.headers['cache-control']).toBe('no-store')
    const body = json<ReturnInstructionsAnswer>(answer)
    // Friday 20 November plus 2 business days.
    expect(body).toMatchObject({ review: { state: 'pending', answer_by: '2026-11-24' } })
    expect(body).not.toHaveProperty('label_url')
    expect(body).not.toHaveProperty('qr_svg')
    expect((await label(made.id!)).statusCode).toBe(409)
    const shown = await status(made.id!)
    expect(shown.label).toBeNull()
    expect(shown.review).toEqual({ state: 'pending', answer_by: '2026-11-24' })
    expect(await emails(made.id!)).toEqual(['created'])

    const move = await post(`/admin/api/returns/${made.id}/status`, { state: 'received' })
    expect(move.statusCode).toBe(409)
    expect(move.json<{ message: string }>().message).toMatch(/waiting for review/)

    const queue = json<ReviewQueue>(await get('/admin/api/reviews'))
    expect(queue.total).toBe(1)
    expect(queue.returns[0]).toMatchObject({ id: made.id, review: 'pending', answer_by: '2026-11-24' })
    expect(queue.returns[0]!.flags).toEqual([expect.objectContaining({ rule: 'over_amount' })])
    const list = json<ReturnList>(await get('/admin/api/returns?review=pending'))
    expect(list.returns.map((entry) => entry.id)).toEqual([made.id])
    expect(json<ReturnList>(await get('/admin/api/returns?review=rejected')).returns).toEqual([])
  })

  test('approved, the return gets its label and the approved e-mail; the decision is on its timeline', async () => {
    const { order, made } = await flagged()
    const decided = json<ReviewDecided>(await decide({ return_ids: [made.id], decision: 'approve' }))
    expect(decided).toEqual({ decided: [made.id], skipped: [] })

    expect(json<ReturnInstructionsAnswer>(await instructions(order, made.id!))).toHaveProperty('label_url')
    expect((await label(made.id!)).statusCode).toBe(200)
    const shown = await status(made.id!)
    expect(shown.label).not.toBeNull()
    expect(shown.review).toEqual({ state: 'approved', decided_at: NOW.toISOString() })
    expect(await emails(made.id!)).toEqual(['created', 'approved'])
    const webhooks = await api.db.query<{ event: string }>(
      "SELECT event FROM outbox WHERE return_id = $1 AND channel = 'webhook' ORDER BY seq",
      [made.id],
    )
    expect(webhooks.map((row) => row.event)).toEqual(['return.created', 'return.updated'])

    const detail = json<ReturnDetail>(await get(`/admin/api/returns/${made.id}`))
    expect(detail.review).toMatchObject({ state: 'approved', decided_by: 'staff@demo.example', reason: null })
    expect(detail.timeline.at(-1)).toMatchObject({
      kind: 'action',
      actor: 'staff@demo.example',
      note: 'Approved after review',
    })
    // Once approved, the items move on as any return's.
    expect((await post(`/admin/api/returns/${made.id}/status`, { state: 'in_transit' })).statusCode).toBe(200)

    // Deciding again changes nothing, and says why.
    const again = json<ReviewDecided>(await decide({ return_ids: [made.id], decision: 'reject', reason: 'Late' }))
    expect(again.decided).toEqual([])
    expect(again.skipped).toEqual([
      { id: made.id, message: `${made.name} is not waiting for review (already approved).` },
    ])
  })

  test('rejected with a reason, the shopper reads it, gets no label, and may return the units again', async () => {
    const { order, made } = await flagged()
    expect((await decide({ return_ids: [made.id], decision: 'reject' })).statusCode).toBe(400)
    expect((await decide({ return_ids: [made.id], decision: 'reject', reason: '   ' })).statusCode).toBe(400)
    const reason = 'These tees were a final-sale <promotion>.'
    expect(json<ReviewDecided>(await decide({ return_ids: [made.id], decision: 'reject', reason })).decided).toEqual([
      made.id,
    ])

    const answer = json<ReturnInstructionsAnswer>(await instructions(order, made.id!))
    expect(answer).toMatchObject({ review: { state: 'rejected', reason } })
    expect(answer).not.toHaveProperty('label_url')
    expect((await label(made.id!)).statusCode).toBe(409)
    const shown = await status(made.id!)
    expect(shown).toMatchObject({ label: null, review: { state: 'rejected', reason } })
    expect(await emails(made.id!)).toEqual(['created', 'rejected'])
    expect(json<ReturnDetail>(await get(`/admin/api/returns/${made.id}`)).timeline.at(-1)).toMatchObject({
      note: `Rejected: ${reason}`,
    })
    expect((await post(`/admin/api/returns/${made.id}/status`, { state: 'received' })).statusCode).toBe(409)
    // The insights count its reason, but neither a refund nor anything the shop kept.
    const insights = json<Insights>(await get('/admin/api/insights'))
    expect(insights.returns).toBe(1)
    expect(Object.values(insights.outcomes).map((each) => each.amount)).toEqual(['0.00', '0.00', '0.00', '0.00'])

    // The rejected return holds no units: the tees can be returned again.
    const again = await verified(api.app, DEMO, jane)
    expect(again.line_items.find((line) => line.id === 'jane-tee')).toMatchObject({ returnable_quantity: 2 })
  })

  test('several at once: each decided or skipped with why; another shop’s return is not found', async () => {
    const first = await flagged()
    const second = await flagged(ben)
    const acme = await verified(api.app, ACME, ACME.orders[0]!)
    const foreign = await submitted(api.app, acme.token, {
      items: [{ line_item_id: acme.line_items[0]!.id, quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    const decided = json<ReviewDecided>(
      await decide({ return_ids: [first.made.id, second.made.id, foreign.id], decision: 'approve' }),
    )
    expect(decided.decided).toEqual([first.made.id, second.made.id])
    expect(decided.skipped).toEqual([{ id: foreign.id, message: 'No such return.' }])
    expect(json<ReviewQueue>(await get('/admin/api/reviews'))).toEqual({ returns: [], total: 0 })
  })

  test('the queue lists oldest first, and a decision must come from the console’s own page', async () => {
    // Ben's a minute before Jane's: the queue is by time, not by id.
    const first = await flagged(ben)
    clock = new Date(NOW.getTime() + 60_000)
    const second = await flagged()
    const queue = json<ReviewQueue>(await get('/admin/api/reviews'))
    expect(queue.returns.map((entry) => entry.id)).toEqual([first.made.id, second.made.id])
    const forged = await post(
      '/admin/api/reviews',
      { return_ids: [first.made.id], decision: 'approve' },
      'https://evil.example',
    )
    expect(forged.statusCode).toBe(403)
    const anonymous = await api.app.inject({ method: 'GET', url: '/admin/api/reviews', headers: { host: HOST } })
    expect(anonymous.statusCode).toBe(401)
    expect((await decide({ return_ids: [], decision: 'approve' })).statusCode).toBe(400)
  })

  test('a token verified before the shop’s limit was reached cannot submit past it; a retry of the return made still answers', async () => {
    const first = await verified(api.app, DEMO, sam)
    const second = await verified(api.app, DEMO, sam2)
    const putPolicy = (policy: Record<string, unknown>) =>
      api.app.inject({
        method: 'PUT',
        url: '/admin/api/policy',
        headers: { host: HOST, cookie, origin: `http://${HOST}` },
        payload: policy,
      })
    expect((await putPolicy({ ...DEMO.policy, limit: { returns: 1, days: 30 } })).statusCode).toBe(200)
    const body = (line: string): ReturnRequest => ({
      items: [{ line_item_id: line, quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    const made = await submitted(api.app, first.token, body('sam-tee'), 'first-return-key')
    const refused = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(second.token), 'idempotency-key': 'second-return-key' },
      payload: body('sam2-tee'),
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({
      error: 'return_not_available',
      message: 'Returns for this order cannot be made online. Please contact the shop.',
    })
    const retry = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/returns',
      headers: { ...bearer(first.token), 'idempotency-key': 'first-return-key' },
      payload: body('sam-tee'),
    })
    expect(retry.statusCode).toBe(200)
    expect(retry.json()).toMatchObject({ id: made.id })
    // The shop as the file has it again, for the next test (the server keeps shops a few seconds).
    expect((await putPolicy({ ...DEMO.policy })).statusCode).toBe(200)
  })

  test('photos for a reason that asks review, and a frequent returner, are flagged with words', async () => {
    const order = await verified(api.app, DEMO, jane)
    const upload = await api.app.inject({
      method: 'POST',
      url: '/portal-registration/photos',
      headers: { ...bearer(order.token), 'content-type': 'image/png' },
      payload: await photo(),
    })
    const made = await submitted(api.app, order.token, {
      items: [
        { line_item_id: 'jane-mug', quantity: 1, reason_id: 'damaged', photo_ids: [upload.json<UploadedPhoto>().id] },
      ],
      refund_method: 'original_payment',
    })
    const flags = json<ReturnDetail>(await get(`/admin/api/returns/${made.id}`)).review!.flags
    expect(flags.map((flag) => flag.rule)).toEqual(['photos'])

    // Sam's first return is fine; the second within 30 days (by the same e-mail, on another order) is not.
    const samOrder = await verified(api.app, DEMO, sam)
    const one = await submitted(api.app, samOrder.token, {
      items: [{ line_item_id: 'sam-tee', quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    expect(json<ReturnDetail>(await get(`/admin/api/returns/${one.id}`)).review).toBeNull()
    const samAgain = await verified(api.app, DEMO, sam2)
    const two = await submitted(api.app, samAgain.token, {
      items: [{ line_item_id: 'sam2-tee', quantity: 1, reason_id: 'changed_mind' }],
      refund_method: 'original_payment',
    })
    const frequent = json<ReturnDetail>(await get(`/admin/api/returns/${two.id}`)).review!
    expect(frequent.flags.map((flag) => flag.rule)).toEqual(['frequent'])
    expect(frequent.flags[0]!.message).toMatch(/2 returns in 30 days/)
  })
})
