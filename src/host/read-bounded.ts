// Reads a file named by a user (a flag's config or header file, a manifest) within a size limit,
// whatever it is: a FIFO or /dev/zero given by mistake must not fill the memory.
import {closeSync, constants, fstatSync, openSync, readSync} from 'node:fs'
import {open} from 'node:fs/promises'
import {TooLargeError} from '../util/errors.js'

/** The file's text; TooLargeError beyond `limit` bytes; fs errors as they come. */
export async function readBounded(path: string, limit: number): Promise<string> {
  return (await readBoundedBytes(path, limit)).toString('utf8')
}

/** The first buffer for a file that states no size (a FIFO, a device): grown as it fills. */
const FIRST_CHUNK_BYTES = 64 * 1024

/** The file's bytes; TooLargeError beyond `limit` bytes; fs errors as they come. */
export async function readBoundedBytes(path: string, limit: number): Promise<Buffer> {
  const fh = await open(path, 'r')
  try {
    // Sized by the file, not the limit (a manifest's limit is 10 MiB, its file a few KiB);
    // grown up to the limit when the file grows or states no size.
    const {size} = await fh.stat()
    let buf = Buffer.allocUnsafe(Math.min(limit + 1, Math.max(size + 1, FIRST_CHUNK_BYTES)))
    let total = 0
    for (;;) {
      if (total === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(limit + 1, buf.length * 2))
        buf.copy(bigger)
        buf = bigger
      }
      const {bytesRead} = await fh.read(buf, total, buf.length - total, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > limit) throw new TooLargeError(`larger than ${limit} bytes`)
    }
    return buf.subarray(0, total)
  } finally {
    await fh.close()
  }
}

/**
 * The same read, synchronous, for small files read where a thread-pool round trip per step costs
 * more than the read: the host's resolv.conf at start, kube-node's own records (a `get` of 50 pods
 * reads 100 of them). Opened non-blocking, so a FIFO without a writer cannot hang the caller, and
 * without following a final link unless `follow`; only a regular file is read.
 */
export function readBoundedSync(path: string, limit: number, opts: {follow?: boolean} = {}): string {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (opts.follow === false ? constants.O_NOFOLLOW : 0)
  const fd = openSync(path, flags)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new Error('not a regular file')
    if (st.size > limit) throw new TooLargeError(`larger than ${limit} bytes`)
    // Sized by the file, not the limit; a file that grows while it is read gets room up to the limit.
    let buf = Buffer.allocUnsafe(st.size + 1)
    let total = 0
    for (;;) {
      if (total === buf.length) {
        if (total > limit) throw new TooLargeError(`larger than ${limit} bytes`)
        const bigger = Buffer.allocUnsafe(limit + 1)
        buf.copy(bigger)
        buf = bigger
      }
      const bytesRead = readSync(fd, buf, total, buf.length - total, null)
      if (bytesRead === 0) break
      total += bytesRead
    }
    if (total > limit) throw new TooLargeError(`larger than ${limit} bytes`)
    return buf.toString('utf8', 0, total)
  } finally {
    closeSync(fd)
  }
}
