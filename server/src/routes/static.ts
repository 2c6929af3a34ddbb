import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { PortalContext } from '../context'
import { SERVER_DIR } from '../serverDir'
import { noRoute } from './errors'
import { firstPaint } from './firstPaintHints'

/**
 * The Content-Security-Policy the built portal runs under: no inline script or style, images
 * from this origin, https hosts (the shops' logos and products) and data: (the QR code). Other
 * hosts of the portal must send the same header (docs/deploying.md).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const API_PREFIXES = ['/portal-registration/', '/admin/', '/health', '/demo-assets/', '/assets/', '/api/']

/** The demo shops' images, at /demo-assets/. */
export async function demoAssetRoutes(app: FastifyInstance) {
  await app.register(fastifyStatic, {
    root: join(SERVER_DIR, 'demo', 'assets'),
    prefix: '/demo-assets/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    setHeaders: (res) => {
      void res.setHeader('cache-control', 'public, max-age=86400')
    },
  })
}

/**
 * The built portal from `dir`: hashed assets cached for a year and sent compressed ahead,
 * index.html and env.js never cached, and index.html for any other GET that asks for a page
 * (browser-history routes).
 */
export async function portalRoutes(app: FastifyInstance, dir: string, context: PortalContext) {
  const root = resolve(dir)
  if (!existsSync(join(root, 'index.html'))) throw new Error(`No built portal in ${root}: run npm run build first`)
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    index: false,
    cacheControl: false,
    // A route per file of the build: nothing outside it can be asked for.
    wildcard: false,
    // The build compressed its assets ahead (brotli 11 and gzip 9, webpack.config.mjs): sent as
    // they are, in the best encoding the browser accepts, the file itself otherwise.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (res, path) => {
      res.setHeader('vary', 'accept-encoding')
      res.setHeader(
        'cache-control',
        path.startsWith(join(root, 'assets')) ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
      if (path.endsWith('.html')) res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY)
    },
  })
  // A page of the portal (the start screen, a step, the status page): index.html with what its
  // first paint waits for named in it, and the shop's logo drawn in it.
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const [html, { hints, shell }] = await Promise.all([
      readFile(join(root, 'index.html'), 'utf8'),
      firstPaint(request, context, root),
    ])
    return (
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        // Functions, not strings: `$` in a logo's URL is not a replacement pattern.
        .send(
          html
            .replace('</head>', () => `${hints}</head>`)
            .replace(/<div id=(["']?)root\1><\/div>/, (root) => root.replace('</div>', () => `${shell}</div>`)),
        )
    )
  }
  app.get('/', page)
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!
    const read = request.method === 'GET' || request.method === 'HEAD'
    // The back office's pages (/admin, /admin/returns/…) are its own page; its API is not.
    if (read && (path === '/admin' || (path.startsWith('/admin/') && !path.startsWith('/admin/api/'))))
      return reply.sendFile('admin.html')
    if (!read || API_PREFIXES.some((prefix) => path.startsWith(prefix))) throw noRoute(request.method, request.url)
    return page(request, reply)
  })
}
