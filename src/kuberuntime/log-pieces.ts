// A CRI log file cut into pieces that are written through as they come, the way the kubelet
// writes partial (P) records without joining them: nothing here holds a whole line, so a line of
// any length (P records without end, or one physical line of gigabytes) costs at most
// LOG_MAX_HELD_BYTES. A piece says whether it begins a line (where a timestamp goes) and whether
// the line ends with it (where a newline goes). Pure.

/** The most bytes of one unfinished physical line held before they are written through. */
export const LOG_MAX_HELD_BYTES = 64 * 1024
/** A CRI record's header (`<RFC 3339 time> stdout F `) lies within this many bytes. */
const HEADER_BYTES = 128
const NEWLINE = 0x0a

/** Part of one physical line of the file. */
export interface LineSegment {
  data: Buffer
  /** The physical line begins here (its header, if any, is in `data`). */
  start: boolean
  /** The physical line ends here (a newline followed `data`). */
  end: boolean
}

/** Cuts chunks into line segments; holds at most `maxHeld` bytes of an unfinished line. */
export class LineSplitter {
  private held: Buffer[] = []
  private heldBytes = 0
  private atStart = true

  private readonly maxHeld: number

  /** `maxHeld` is at least HEADER_BYTES, so a line's first segment always holds its header. */
  constructor(maxHeld = LOG_MAX_HELD_BYTES) {
    this.maxHeld = Math.max(maxHeld, HEADER_BYTES)
  }

  /** `chunk` must not be reused by the caller: segments may point into it. */
  push(chunk: Buffer): LineSegment[] {
    const out: LineSegment[] = []
    let from = 0
    for (let nl = chunk.indexOf(NEWLINE, from); nl >= 0; nl = chunk.indexOf(NEWLINE, from)) {
      const part = chunk.subarray(from, nl)
      out.push({data: this.take(part), start: this.atStart, end: true})
      this.atStart = true
      from = nl + 1
    }
    if (from < chunk.length) {
      this.held.push(chunk.subarray(from))
      this.heldBytes += chunk.length - from
      if (this.heldBytes >= this.maxHeld) {
        out.push({data: this.take(), start: this.atStart, end: false})
        this.atStart = false
      }
    }
    return out
  }

  /** What is held of an unfinished line (end of input without a newline). */
  flush(): LineSegment | undefined {
    if (this.heldBytes === 0) return undefined
    const seg = {data: this.take(), start: this.atStart, end: false}
    this.atStart = true
    return seg
  }

  /** Forget a held line (the file was replaced). */
  reset(): void {
    this.take()
    this.atStart = true
  }

  private take(tail?: Buffer): Buffer {
    // Most lines lie within one chunk: nothing held, no array to build.
    if (tail && this.heldBytes === 0 && this.held.length === 0) return tail
    const parts = tail ? [...this.held, tail] : this.held
    const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts)
    this.held = []
    this.heldBytes = 0
    return data
  }
}

/** Part of one log line as the reader writes it. */
export interface LogPiece {
  /** The text, with `<timestamp> ` before it when timestamps were asked for and `first`. */
  data: Buffer
  /** The timestamp of the line's first record ('' for a line that is not a CRI record). */
  timestamp: string
  /** The line begins with this piece. */
  first: boolean
  /** The line ends with this piece: a newline follows it. */
  last: boolean
}

const HEADER = /^(\S+) (stdout|stderr) ([FP])( |$)/

/** Whether a line that begins with these bytes is a partial (P) record. */
export function isPartialRecord(head: Buffer): boolean {
  const m = HEADER.exec(head.subarray(0, HEADER_BYTES).toString('latin1'))
  return m !== null && m[3] === 'P'
}

/** Turns line segments into pieces of log lines; lines that are not CRI records pass through as full lines. */
export class CriPieces {
  private lineOpen = false
  private partial = false
  private timestamp = ''

  constructor(private readonly timestamps: boolean) {}

  piece(seg: LineSegment): LogPiece | undefined {
    let data = seg.data
    let recordTime = ''
    if (seg.start) {
      const head = data.subarray(0, HEADER_BYTES).toString('latin1')
      const m = HEADER.exec(head)
      // `$` at the cut end of a long header is no end of line.
      if (m && (m[4] === ' ' || head.length === data.length)) {
        recordTime = m[1]!
        this.partial = m[3] === 'P'
        data = data.subarray(m[0].length)
      } else {
        // An empty line that is no record is no line (as the runtime never writes one).
        if (data.length === 0 && seg.end) return undefined
        this.partial = false
      }
    }
    const first = !this.lineOpen
    if (first) this.timestamp = recordTime
    const last = seg.end && !this.partial
    this.lineOpen = !last
    if (first && this.timestamps && this.timestamp !== '') data = Buffer.concat([Buffer.from(`${this.timestamp} `), data])
    return {data, timestamp: this.timestamp, first, last}
  }
}

/**
 * Joins pieces back into whole lines for callers that want lines (a failure report, tests),
 * keeping at most `maxLineBytes` of each: the join is bounded, the rest of a longer line is cut.
 */
export class LineCollector {
  readonly lines: string[] = []
  private parts: Buffer[] = []
  private bytes = 0

  constructor(private readonly maxLineBytes: number) {}

  readonly write = (p: LogPiece): void => {
    if (p.first) this.clear()
    const room = this.maxLineBytes - this.bytes
    if (room > 0) {
      const part = p.data.length > room ? p.data.subarray(0, room) : p.data
      this.parts.push(part)
      this.bytes += part.length
    }
    if (p.last) {
      this.lines.push(Buffer.concat(this.parts).toString('utf8'))
      this.clear()
    }
  }

  private clear(): void {
    this.parts = []
    this.bytes = 0
  }
}
