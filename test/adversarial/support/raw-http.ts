// Raw bytes to an HTTP port on loopback, and what came back (or that the connection closed):
// for requests no well-behaved client would send. Every exchange is bounded in time.
import {connect} from 'node:net'
import {connect as connectTls} from 'node:tls'

export interface RawReply {
  /** The status code of the first response line, or undefined when none came. */
  status: number | undefined
  text: string
  closed: boolean
  /** How many of the payload's parts were written before the exchange ended. */
  partsSent: number
}

/** With `tls`, the bytes go inside a TLS connection (any certificate accepted), as to the API's TLS port. */
export function rawRequest(port: number, payload: string | Buffer | Array<string | Buffer>, opts: {waitMs?: number; gapMs?: number; tls?: boolean} = {}): Promise<RawReply> {
  const parts = Array.isArray(payload) ? payload : [payload]
  return new Promise((resolve) => {
    const socket = opts.tls ? connectTls({port, host: '127.0.0.1', rejectUnauthorized: false}) : connect(port, '127.0.0.1')
    let text = ''
    let closed = false
    let partsSent = 0
    const finish = (): void => {
      clearTimeout(timer)
      socket.destroy()
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      resolve({status: m ? Number(m[1]) : undefined, text, closed, partsSent})
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
    socket.on(opts.tls ? 'secureConnect' : 'connect', async () => {
      for (const p of parts) {
        if (socket.destroyed) break
        socket.write(p)
        partsSent++
        if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs))
      }
    })
  })
}

const REUSED_CONNECTION_CLOSED: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET'])

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
  // The close shows as undici's "other side closed", or as a reset when the daemon destroyed the
  // socket with bytes unread.
  const status = await probe().catch((err: unknown) => {
    if (signal.aborted || !REUSED_CONNECTION_CLOSED.has((err as {cause?: {code?: string}}).cause?.code ?? '')) throw err
    return probe()
  })
  return {status, ms: performance.now() - started}
}
