// Reads a container's CRI log file, the way `kubectl logs` shows it: the last N lines, with or
// without timestamps, and with --follow keeps reading as the file grows, starting over when the
// file is rotated (replaced by a new one at the same path). Memory stays bounded whatever the
// file holds: --tail reads backwards from the end in chunks, everything else streams forward in
// chunks, and lines are written through in pieces (log-pieces.ts), never joined whole. The
// writer may return a promise (a client that reads slowly): reading waits for it. An aborted
// signal stops reading at the next chunk and closes the file. Files are read through the host
// port (HostFs), as every file access outside host/.
import type {HostFs, PathInfo, ReadHandle} from '../host/port.js'
import type {Clock} from '../util/clock.js'
import {CriPieces, isPartialRecord, LineSplitter, type LogPiece} from './log-pieces.js'

export interface LogOptions {
  tail?: number
  timestamps: boolean
  follow: boolean
  signal?: AbortSignal
  /** How often a followed file is checked for new data. */
  pollMs?: number
  /** Bytes read at once and held of an unfinished line (default LOG_CHUNK_BYTES); tests make it small. */
  chunkBytes?: number
}

export type LogWriter = (piece: LogPiece) => void | Promise<void>

/** What reading a log needs of the host. */
export type LogFs = Pick<HostFs, 'stat' | 'openRead'>

/** Bytes read at once, forwards or backwards. */
export const LOG_CHUNK_BYTES = 64 * 1024
/** The bytes of a line's start that tell whether it is a partial record. */
const HEAD_BYTES = 128

const NEWLINE = 0x0a

/** What is at `path` (following links); an ENOENT error, as node:fs gives, when nothing is. */
async function statFile(fs: LogFs, path: string): Promise<PathInfo> {
  const st = await fs.stat(path, {follow: true})
  if (st === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, stat '${path}'`), {code: 'ENOENT'})
  return st
}

export async function streamContainerLog(path: string, opts: LogOptions, write: LogWriter, clock: Clock, fs: LogFs): Promise<void> {
  const {signal} = opts
  let position = 0
  let inode = 0
  const chunkBytes = opts.chunkBytes ?? LOG_CHUNK_BYTES
  const splitter = new LineSplitter(chunkBytes)
  const pieces = new CriPieces(opts.timestamps)
  const emit = async (chunk: Buffer): Promise<void> => {
    for (const seg of splitter.push(chunk)) {
      const p = pieces.piece(seg)
      // Awaited only when the writer asks to wait: most lines of a long log need no promise.
      const wait = p && write(p)
      if (wait) await wait
    }
  }
  try {
    const st = await statFile(fs, path)
    inode = st.ino ?? 0
    const fh = await fs.openRead(path)
    try {
      // Only whole lines: a trailing partial line is read again when following.
      const end = await lastNewlineEnd(fh, st.size, chunkBytes, signal)
      const start = opts.tail !== undefined && opts.tail >= 0 ? await tailStart(fh, end, opts.tail, chunkBytes, signal) : 0
      await readRange(fh, start, end, chunkBytes, emit, signal)
      position = end
    } finally {
      await fh.close()
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !opts.follow) throw err
  }
  if (!opts.follow) return
  while (!signal?.aborted) {
    await clock.sleep(opts.pollMs ?? 250, signal)
    let st
    try {
      st = await statFile(fs, path)
    } catch {
      continue
    }
    if ((st.ino ?? 0) !== inode || st.size < position) {
      // Rotated: the new file at the path is read from its start.
      inode = st.ino ?? 0
      position = 0
      splitter.reset()
    }
    if (st.size <= position) continue
    const fh = await fs.openRead(path)
    try {
      position = await readRange(fh, position, st.size, chunkBytes, emit, signal)
    } finally {
      await fh.close()
    }
  }
}

/** Reads [start, end) in chunks into `emit`, until done or aborted; returns the position reached. */
async function readRange(fh: ReadHandle, start: number, end: number, chunkBytes: number, emit: (chunk: Buffer) => Promise<void>, signal: AbortSignal | undefined): Promise<number> {
  let pos = start
  while (pos < end && !signal?.aborted) {
    // A new buffer each time: pieces handed on may still point into the last one.
    const buf = Buffer.allocUnsafe(Math.min(chunkBytes, end - pos))
    const bytesRead = await fh.read(buf, 0, buf.length, pos)
    if (bytesRead === 0) break
    pos += bytesRead
    await emit(buf.subarray(0, bytesRead))
  }
  return pos
}

/** The offset just after the last newline at or before `size` (0 when there is none). */
async function lastNewlineEnd(fh: ReadHandle, size: number, chunkBytes: number, signal: AbortSignal | undefined): Promise<number> {
  const buf = Buffer.alloc(chunkBytes)
  let end = size
  while (end > 0 && !signal?.aborted) {
    const start = Math.max(0, end - buf.length)
    const bytesRead = await fh.read(buf, 0, end - start, start)
    const i = buf.subarray(0, bytesRead).lastIndexOf(NEWLINE)
    if (i >= 0) return start + i + 1
    end = start
  }
  return 0
}

/**
 * Where the last `tail` lines begin, reading backwards in chunks of `chunkBytes`: a line is a
 * run of partial (P) records ended by a full (F) one, so the start is just after the (tail+1)-th
 * full record from the end. Lines that are not CRI records count as full. Holds one chunk and the
 * first HEAD_BYTES of the line being scanned, whatever the lines' lengths.
 */
async function tailStart(fh: ReadHandle, end: number, tail: number, chunkBytes: number, signal: AbortSignal | undefined): Promise<number> {
  if (tail === 0) return end
  const buf = Buffer.alloc(chunkBytes)
  let fullLines = 0
  let pos = end
  // The line being scanned ends at lineEnd (its newline); `head` holds its first bytes found so far.
  let lineEnd = end
  let head: Buffer = Buffer.alloc(0)
  const counts = (lineStart: number): boolean => lineStart < lineEnd && !isPartialRecord(head) && ++fullLines > tail
  while (pos > 0) {
    if (signal?.aborted) return end
    const start = Math.max(0, pos - buf.length)
    const bytesRead = await fh.read(buf, 0, pos - start, start)
    const chunk = buf.subarray(0, bytesRead)
    let below = chunk.length
    for (let nl = chunk.lastIndexOf(NEWLINE, below - 1); below > 0 && nl >= 0; nl = below > 0 ? chunk.lastIndexOf(NEWLINE, below - 1) : -1) {
      head = headOf(chunk.subarray(nl + 1, below), head)
      if (counts(start + nl + 1)) return lineEnd + 1
      lineEnd = start + nl
      head = Buffer.alloc(0)
      below = nl
    }
    head = headOf(chunk.subarray(0, below), head)
    pos = start
  }
  // The file's first line.
  return counts(0) ? lineEnd + 1 : 0
}

/** The first HEAD_BYTES of `before` followed by `after`. */
function headOf(before: Buffer, after: Buffer): Buffer {
  if (before.length >= HEAD_BYTES || after.length === 0) return Buffer.from(before.subarray(0, HEAD_BYTES))
  return Buffer.concat([before, after]).subarray(0, HEAD_BYTES)
}
