// Reads a small file named by a flag (a config file, a header file) within a size limit,
// whatever it is: a FIFO or /dev/zero given by mistake must not fill the memory.
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
