/**
 * The yardstick of bench/api.ts: Fastify with nothing of Rebound's, one POST route that parses the
 * same JSON body as verify and answers a small JSON object, no logger, no plugins. Its own process,
 * started like the API (node, loopback), so both are loaded the same way in the same run.
 *   node --import tsx bench/bareFastify.ts <port>
 */
import Fastify from 'fastify'

const port = Number(process.argv[2] ?? 18_490)
const app = Fastify({ logger: false })

app.get('/health', (_request, reply) => reply.send({ status: 'ok' }))
app.post('/bare', (request, reply) => {
  const body = request.body as { order_name?: unknown } | null
  return reply.send({ ok: true, order_name: typeof body?.order_name === 'string' ? body.order_name : null })
})

const stop = () => void app.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

app.listen({ port, host: '127.0.0.1' }).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
