// Reads a container's CRI log file, the way `kubectl logs` shows it: the last N lines, with or
// without timestamps, and with --follow keeps reading as the file grows, starting over when the
// file is rotated (replaced by a new one at the same path).
import {open, stat} from 'node:fs/promises'
import type {Clock} from '../util/clock.js'
import {LogParser, formatRecord, parseLog} from './log-format.js'

export interface LogOptions {
  tail?: number
  timestamps: boolean
  follow: boolean
  signal?: AbortSignal
  /** How often a followed file is checked for new data. */
  pollMs?: number
}

export async function streamContainerLog(path: string, opts: LogOptions, write: (line: string) => void, clock: Clock): Promise<void> {
  let position = 0
  let inode = 0
  try {
    const st = await stat(path)
    inode = st.ino
    const fh = await open(path, 'r')
    try {
      const buf = await fh.readFile()
      position = buf.length
      const text = buf.toString('utf8')
      // Only whole lines: a trailing partial line is read again when following.
      const complete = text.endsWith('\n') ? text : text.slice(0, text.lastIndexOf('\n') + 1)
      position = Buffer.byteLength(complete)
      let records = parseLog(complete)
      if (opts.tail !== undefined && opts.tail >= 0) records = records.slice(Math.max(0, records.length - opts.tail))
      for (const r of records) write(formatRecord(r, opts.timestamps))
    } finally {
      await fh.close()
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !opts.follow) throw err
  }
  if (!opts.follow) return
  const parser = new LogParser()
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
      const {buffer, bytesRead} = await fh.read({buffer: Buffer.alloc(st.size - position), position})
      position += bytesRead
      const lines = (carry + buffer.subarray(0, bytesRead).toString('utf8')).split('\n')
      carry = lines.pop() ?? ''
      for (const line of lines) {
        if (line === '') continue
        const r = parser.push(line)
        if (r) write(formatRecord(r, opts.timestamps))
      }
    } finally {
      await fh.close()
    }
  }
}
