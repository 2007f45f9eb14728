// Reads a small file named by a flag (a config file, a header file) within a size limit,
// whatever it is: a FIFO or /dev/zero given by mistake must not fill the memory.
import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {open} from 'node:fs/promises'

export class TooLargeError extends RangeError {}

/** The file's text; TooLargeError beyond `limit` bytes; fs errors as they come. */
export async function readBounded(path: string, limit: number): Promise<string> {
  const fh = await open(path, 'r')
  try {
    const buf = Buffer.alloc(limit + 1)
    let total = 0
    for (;;) {
      const {bytesRead} = await fh.read(buf, total, buf.length - total, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > limit) throw new TooLargeError(`larger than ${limit} bytes`)
    }
    return buf.subarray(0, total).toString('utf8')
  } finally {
    await fh.close()
  }
}

/**
 * The same read, synchronous, for a small host file read once at start (resolv.conf): one call
 * instead of four round trips through the thread pool. Opened non-blocking, so that a FIFO without
 * a writer cannot hang the start, and only a regular file is read.
 */
export function readBoundedSync(path: string, limit: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY)
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file')
    const buf = Buffer.alloc(limit + 1)
    let total = 0
    for (;;) {
      const bytesRead = readSync(fd, buf, total, buf.length - total, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > limit) throw new TooLargeError(`larger than ${limit} bytes`)
    }
    return buf.subarray(0, total).toString('utf8')
  } finally {
    closeSync(fd)
  }
}
