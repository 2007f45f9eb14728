// Writing a long response at the pace its client reads it: after a write the socket cannot take
// at once, the writer waits for 'drain' instead of queueing more, so a client that reads slowly
// (or never) holds at most one write's worth beyond the socket's own buffer. A client that takes
// nothing for `stalledMs` is let go.
import type {ServerResponse} from 'node:http'

/** Writes `chunk`; resolves once the response can take more, or it ended, or `signal` aborted. */
export async function writeAtClientPace(res: ServerResponse, chunk: Buffer, signal: AbortSignal, stalledMs: number): Promise<void> {
  if (res.destroyed || signal.aborted) return
  if (res.write(chunk)) return
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      res.off('drain', done)
      res.off('close', done)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(() => {
      res.destroy()
      done()
    }, stalledMs)
    res.once('drain', done)
    res.once('close', done)
    signal.addEventListener('abort', done, {once: true})
  })
}
