// The CRI container log format (kubelet pkg/kubelet/kuberuntime/logs): one record per line,
//   2026-11-21T20:42:31.812111033Z stdout F hello
// where F is a full line and P a partial one whose text continues in the next record. Pure.

export interface LogRecord {
  timestamp: string
  stream: 'stdout' | 'stderr'
  /** The whole line, partial records joined. */
  text: string
}

const RECORD = /^(\S+) (stdout|stderr) ([FP])(?: (.*))?$/

/** Joins partial records; lines that are not CRI records are passed through as stdout. */
export class LogParser {
  private partial: {timestamp: string; stream: 'stdout' | 'stderr'; text: string} | undefined

  push(line: string): LogRecord | undefined {
    const m = RECORD.exec(line)
    if (!m) return {timestamp: '', stream: 'stdout', text: line}
    const [, timestamp, stream, tag, text = ''] = m as unknown as [string, string, 'stdout' | 'stderr', string, string | undefined]
    const joined = this.partial && this.partial.stream === stream ? this.partial.text + text : text
    const first = this.partial?.timestamp ?? timestamp
    if (tag === 'P') {
      this.partial = {timestamp: first, stream, text: joined}
      return undefined
    }
    this.partial = undefined
    return {timestamp: first, stream, text: joined}
  }
}

export function parseLog(content: string): LogRecord[] {
  const parser = new LogParser()
  const out: LogRecord[] = []
  for (const line of content.split('\n')) {
    if (line === '') continue
    const r = parser.push(line)
    if (r) out.push(r)
  }
  return out
}

export function formatRecord(r: LogRecord, timestamps: boolean): string {
  return timestamps && r.timestamp ? `${r.timestamp} ${r.text}` : r.text
}
