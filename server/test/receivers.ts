/**
 * What the outbox delivers to, for real, on loopback: an HTTP receiver of webhooks and an SMTP
 * server (the smtp-server library, messages parsed by mailparser). Each can be told to fail.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { createServer as createTcpServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedHook {
  headers: IncomingHttpHeaders
  body: string
  at: number
}

export interface WebhookReceiver {
  url: (path?: string) => string
  received: ReceivedHook[]
  /** ok: 204; down: 503; hang: never answers */
  mode: 'ok' | 'down' | 'hang'
  /** resolves once `count` hooks were received (answered or not) */
  waitFor(count: number, ms?: number): Promise<ReceivedHook[]>
  close(): Promise<void>
}

/** Resolves with the first value `check` gives that is not null, asked every 25 ms for at most `ms`. */
export async function eventually<T>(check: () => Promise<T | null> | T | null, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hanging = new Set<() => void>()
  const receiver: WebhookReceiver = {
    url: (path = '/hooks') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    received: [],
    mode: 'ok',
    waitFor: (count, ms = 15_000) =>
      eventually(
        () => (receiver.received.length >= count ? receiver.received : null),
        `${count} webhooks (got ${receiver.received.length})`,
        ms,
      ),
    close: () =>
      new Promise((resolve) => {
        for (const end of hanging) end()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      if (receiver.mode === 'hang') {
        hanging.add(() => response.destroy())
        return
      }
      response.statusCode = receiver.mode === 'ok' ? 204 : 503
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return receiver
}

export interface SmtpReceiver {
  url: string
  messages: ParsedMail[]
  /** ok: accepts; refuse: 451 to every recipient */
  mode: 'ok' | 'refuse'
  waitFor(count: number, ms?: number): Promise<ParsedMail[]>
  close(): Promise<void>
}

export async function startSmtp(): Promise<SmtpReceiver> {
  const receiver: SmtpReceiver = {
    url: '',
    messages: [],
    mode: 'ok',
    waitFor: (count, ms = 15_000) =>
      eventually(
        () => (receiver.messages.length >= count ? receiver.messages : null),
        `${count} e-mails (got ${receiver.messages.length})`,
        ms,
      ),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (receiver.mode === 'refuse') {
        const error = new Error('Mailbox busy, try later') as Error & { responseCode: number }
        error.responseCode = 451
        return callback(error)
      }
      callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          receiver.messages.push(parsed)
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`
  return receiver
}

/** A mail server that takes the connection and never says a word (a timeout). */
export async function startSilentSmtp(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
