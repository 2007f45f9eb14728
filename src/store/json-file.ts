// A JSON file kube-node owns, written so that a reader sees the old content or the new, never
// half (a temporary file renamed over the old one), and read back only when it is small enough.
import {randomBytes} from 'node:crypto'
import {basename, dirname, join} from 'node:path'
import type {HostFs} from '../host/port.js'

/** The content as written, or undefined when the file is missing, too large or not JSON. */
export async function readJsonFile(fs: HostFs, path: string, maxBytes: number): Promise<unknown> {
  const text = await fs.readSmallText(path, maxBytes)
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** Writes JSON text (mode 0640) through a temporary file in the same directory. */
export async function writeJsonFile(fs: HostFs, path: string, text: string): Promise<void> {
  // A name of its own per write: two processes (a `run` beside a `watch`) never share one.
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    await fs.writeFile(tmp, text, 0o640)
    await fs.rename(tmp, path)
  } catch (err) {
    // A write that failed (a full disk) has often created the file: each retry would leave one more.
    await fs.unlink(tmp).catch(() => undefined)
    throw err
  }
}
