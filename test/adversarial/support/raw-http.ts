// Raw bytes to an HTTP port on loopback, and what came back (or that the connection closed):
// for requests no well-behaved client would send. Every exchange is bounded in time.
import {connect} from 'node:net'

export interface RawReply {
  /** The status code of the first response line, or undefined when none came. */
  status: number | undefined
  text: string
  closed: boolean
}

export function rawRequest(port: number, payload: string | Buffer | Array<string | Buffer>, opts: {waitMs?: number; gapMs?: number} = {}): Promise<RawReply> {
  const parts = Array.isArray(payload) ? payload : [payload]
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    let closed = false
    const finish = (): void => {
      clearTimeout(timer)
      socket.destroy()
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      resolve({status: m ? Number(m[1]) : undefined, text, closed})
    }
    let timer = setTimeout(finish, opts.waitMs ?? 3000)
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1')
      // An answer came: a keep-alive connection would stay open, so wait only for its rest.
      clearTimeout(timer)
      timer = setTimeout(finish, 300)
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      closed = true
      finish()
    })
    socket.on('connect', async () => {
      for (const p of parts) {
        if (socket.destroyed) break
        socket.write(p)
        if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs))
      }
    })
  })
}

/**
 * GET /healthz, bounded to 5 s in all. A kept-alive connection of fetch's pool sits idle between
 * two probes, and a server shedding idle sockets under a flood may close it just as the next probe
 * reuses it: the probe is then sent once more, as HTTP clients resend an idempotent request whose
 * reused connection closed before any answer. The time counts from the first attempt.
 */
export async function healthz(port: number): Promise<{status: number; ms: number}> {
  const started = performance.now()
  const signal = AbortSignal.timeout(5000)
  const probe = async (): Promise<number> => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, {signal})
    await res.text()
    return res.status
  }
  const status = await probe().catch((err: unknown) => {
    if (signal.aborted || (err as {cause?: {code?: string}}).cause?.code !== 'UND_ERR_SOCKET') throw err
    return probe()
  })
  return {status, ms: performance.now() - started}
}
