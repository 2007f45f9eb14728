// Whole log lines as the log reader's pieces, for fakes of the API's log data, and the pieces a
// reader wrote gathered back into lines.
import type {LogLinePiece} from '../../src/server/kube-api/types.js'
import {LineCollector} from '../../src/kuberuntime/log-pieces.js'

/** One whole line as a single piece (timestamp '' when it has none). */
export function wholeLine(text: string, timestamp = ''): LogLinePiece {
  return {data: Buffer.from(text), timestamp, first: true, last: true}
}

/** A writer that gathers lines (each cut at 1 MiB) and the lines so far. */
export function lineSink(): {write: LineCollector['write']; lines: string[]} {
  const c = new LineCollector(1024 * 1024)
  return {write: c.write, lines: c.lines}
}
