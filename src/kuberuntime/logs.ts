// Reads a container's CRI log file, the way `kubectl logs` shows it: the last N lines, with or
// without timestamps, and with --follow keeps reading as the file grows, starting over when the
// file is rotated (replaced by a new one at the same path). Memory stays bounded whatever the
// file's size: --tail reads backwards from the end in chunks, everything else streams forward
// in chunks.
import {open, stat, type FileHandle} from 'node:fs/promises'
import type {Clock} from '../util/clock.js'
import {LogParser, formatRecord} from './log-format.js'

export interface LogOptions {
  tail?: number
  timestamps: boolean
  follow: boolean
  signal?: AbortSignal
  /** How often a followed file is checked for new data. */
  pollMs?: number
}

/** Bytes read at once, forwards or backwards. */
export const LOG_CHUNK_BYTES = 64 * 1024

const NEWLINE = 0x0a

export async function streamContainerLog(path: string, opts: LogOptions, write: (line: string) => void, clock: Clock): Promise<void> {
  let position = 0
  let inode = 0
  const parser = new LogParser()
  const emit = (line: string): void => {
    if (line === '') return
    const r = parser.push(line)
    if (r) write(formatRecord(r, opts.timestamps))
  }
  try {
    const st = await stat(path)
    inode = st.ino
    const fh = await open(path, 'r')
    try {
      // Only whole lines: a trailing partial line is read again when following.
      const end = await lastNewlineEnd(fh, st.size)
      const start = opts.tail !== undefined && opts.tail >= 0 ? await tailStart(fh, end, opts.tail) : 0
      await readLines(fh, start, end, emit)
      position = end
    } finally {
      await fh.close()
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !opts.follow) throw err
  }
  if (!opts.follow) return
  let carry = ''
  while (!opts.signal?.aborted) {
    await clock.sleep(opts.pollMs ?? 250, opts.signal)
    let st
    try {
      st = await stat(path)
    } catch {
      continue
    }
    if (st.ino !== inode || st.size < position) {
      // Rotated: the new file at the path is read from its start.
      inode = st.ino
      position = 0
      carry = ''
    }
    if (st.size <= position) continue
    const fh = await open(path, 'r')
    try {
      const buf = Buffer.alloc(LOG_CHUNK_BYTES)
      while (position < st.size && !opts.signal?.aborted) {
        const {bytesRead} = await fh.read(buf, 0, Math.min(buf.length, st.size - position), position)
        if (bytesRead === 0) break
        position += bytesRead
        const lines = (carry + buf.subarray(0, bytesRead).toString('utf8')).split('\n')
        carry = lines.pop() ?? ''
        // A line that never ends is cut rather than held without bound.
        if (carry.length > LOG_CHUNK_BYTES * 16) {
          emit(carry)
          carry = ''
        }
        for (const line of lines) emit(line)
      }
    } finally {
      await fh.close()
    }
  }
}

/** The offset just after the last newline at or before `size` (0 when there is none). */
async function lastNewlineEnd(fh: FileHandle, size: number): Promise<number> {
  const buf = Buffer.alloc(LOG_CHUNK_BYTES)
  let end = size
  while (end > 0) {
    const start = Math.max(0, end - buf.length)
    const {bytesRead} = await fh.read(buf, 0, end - start, start)
    const i = buf.subarray(0, bytesRead).lastIndexOf(NEWLINE)
    if (i >= 0) return start + i + 1
    end = start
  }
  return 0
}

/**
 * Where the last `tail` records begin, reading backwards: a record is a run of partial (P)
 * lines ended by a full (F) line, so the start is just after the (tail+1)-th full line from the
 * end. Lines that are not CRI records count as full lines.
 */
async function tailStart(fh: FileHandle, end: number, tail: number): Promise<number> {
  if (tail === 0) return end
  const buf = Buffer.alloc(LOG_CHUNK_BYTES)
  let fullLines = 0
  let pos = end
  // The bytes of the line being scanned that lie after the current chunk (a line may span chunks).
  let lineTail = Buffer.alloc(0)
  let lineEnd = end
  while (pos > 0) {
    const start = Math.max(0, pos - buf.length)
    const {bytesRead} = await fh.read(buf, 0, pos - start, start)
    let chunk = buf.subarray(0, bytesRead)
    for (let i = chunk.length - 1; i >= -1; i--) {
      if (i >= 0 && chunk[i] !== NEWLINE) continue
      if (i === -1 && start > 0) break
      const lineStart = start + i + 1
      if (lineStart < lineEnd) {
        const line = Buffer.concat([chunk.subarray(i + 1), lineTail]).subarray(0, 64).toString('latin1')
        if (!/^\S+ (stdout|stderr) P( |$)/.test(line)) {
          fullLines++
          if (fullLines > tail) return lineEnd + 1
        }
      }
      lineEnd = lineStart - 1
      lineTail = Buffer.alloc(0)
      chunk = chunk.subarray(0, i + 1)
      if (i === -1) break
    }
    // Keep only the head of the unfinished line: its tag is in its first bytes.
    lineTail = Buffer.concat([chunk, lineTail]).subarray(0, 64)
    pos = start
  }
  return 0
}

/** Reads [start, end) in chunks and hands each line (without its newline) to `emit`. */
async function readLines(fh: FileHandle, start: number, end: number, emit: (line: string) => void): Promise<void> {
  const buf = Buffer.alloc(LOG_CHUNK_BYTES)
  let carry = ''
  let pos = start
  while (pos < end) {
    const {bytesRead} = await fh.read(buf, 0, Math.min(buf.length, end - pos), pos)
    if (bytesRead === 0) break
    pos += bytesRead
    const lines = (carry + buf.subarray(0, bytesRead).toString('utf8')).split('\n')
    carry = lines.pop() ?? ''
    for (const line of lines) emit(line)
  }
  if (carry !== '') emit(carry)
}
