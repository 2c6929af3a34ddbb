/**
 * The machine's reference, measured in the same run as a benchmark's figures and printed and saved
 * beside them, so that figures of different days (and machines) can be compared: what a bare
 * Fastify route (bench/bareFastify.ts, a process of its own) answers in a second, and how long a
 * fixed CPU loop takes. On this shared two-core machine both move with whatever else runs; a
 * figure that grew while the reference fell tells a busy machine from slower code.
 * About 5 s: the loop (0.5–1 s), the bare server's start, 1 s of warm-up and 3 s of load.
 */
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { freePort, root, stop } from './server'

export interface Reference {
  /** requests a second of the bare Fastify route, 10 connections on loopback, 3 s */
  bareRps: number
  /** milliseconds of a fixed integer loop (50 million multiply-adds) in this process */
  cpuLoopMs: number
}

/** The fixed CPU loop, the same since bench/consoleUnderLoad.ts first printed it. */
export function cpuLoop(): number {
  const started = performance.now()
  let x = 0
  for (let i = 0; i < 50_000_000; i++) x = (x * 31 + i) | 0
  const ms = Math.round(performance.now() - started)
  if (x === 42) console.log('') // keeps the loop from being optimised away
  return ms
}

export async function measureReference(): Promise<Reference> {
  const cpuLoopMs = cpuLoop()
  const port = await freePort(18_492, 18_499)
  const bare = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'bareFastify.ts'), String(port)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    const deadline = Date.now() + 30_000
    for (;;) {
      if (bare.exitCode !== null) throw new Error(`the bare Fastify server exited with ${bare.exitCode}`)
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break
      } catch (error) {
        if (Date.now() > deadline) throw error
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const options = {
      url: `http://127.0.0.1:${port}/bare`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: '{"order_name":"#1001"}',
      connections: 10,
    }
    await autocannon({ ...options, duration: 1 }) // warm-up: JIT
    const result = await autocannon({ ...options, duration: 3 })
    return { bareRps: Math.round(result.requests.average), cpuLoopMs }
  } finally {
    await stop(bare)
  }
}

export function printReference(reference: Reference): void {
  console.log(
    `Reference (same run): a bare Fastify route ${reference.bareRps.toLocaleString('en')} req/s (10 connections), a fixed CPU loop ${reference.cpuLoopMs} ms.`,
  )
}
