// kube-node's own small records beside its root dir (pod.json, manifest-error.json, the API
// address and credential): whole-file replacement by a temporary file and a rename, so a reader
// sees the old file or the new one, never half of one, and reads that trust only a regular file
// reached without a link.
import {constants} from 'node:fs'
import {mkdir, open, rename, rm, writeFile, type FileHandle} from 'node:fs/promises'
import {join} from 'node:path'

/** Writes `dir/name` (the directory made 0750 when missing) through `.name.<pid>.tmp` and a rename. */
export async function writeRecordFile(dir: string, name: string, text: string, mode: number): Promise<void> {
  await mkdir(dir, {recursive: true, mode: 0o750})
  const tmp = join(dir, `.${name}.${process.pid}.tmp`)
  await replaceThrough(tmp, join(dir, name), () => writeFile(tmp, text, {mode}))
}

/** Writes `tmp` and renames it to `path`; a failure (a full disk) leaves no temporary file behind. */
async function replaceThrough(tmp: string, path: string, write: () => Promise<void>): Promise<void> {
  try {
    await write()
    await rename(tmp, path)
  } catch (err) {
    await rm(tmp, {force: true}).catch(() => undefined)
    throw err
  }
}

/**
 * Replaces `path` with a new file of `text`. The temporary name is predictable: whatever sits
 * there (a link planted to another file) is removed, and the file is created anew ('wx': O_EXCL,
 * which never follows a link), so root never writes through it. The rename then replaces a link
 * at `path` itself, not its target.
 */
export async function replaceRecordFile(path: string, text: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`
  await rm(tmp, {force: true})
  await replaceThrough(tmp, path, () => writeFile(tmp, text, {mode, flag: 'wx'}))
}

/** Removes a record; no error when it is missing. */
export async function removeRecordFile(path: string): Promise<void> {
  await rm(path, {force: true})
}

/** A record as read: its text and, from the same descriptor, its owner and permission bits. */
export interface RecordText {
  text: string
  uid: number
  mode: number
}

/**
 * The text of the regular file at `path` of at most `maxBytes`, opened without following a link
 * (O_NOFOLLOW) or blocking on a FIFO; undefined when it is missing, larger, anything else or
 * unreadable. Owner and mode come from the open descriptor, so they are the file's that was read.
 */
export async function readRecordFile(path: string, maxBytes: number): Promise<RecordText | undefined> {
  let file: FileHandle | undefined
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    const st = await file.stat()
    if (!st.isFile() || st.size > maxBytes) return undefined
    const buf = Buffer.alloc(maxBytes + 1)
    const {bytesRead} = await file.read(buf, 0, buf.length, 0)
    if (bytesRead > maxBytes) return undefined
    return {text: buf.subarray(0, bytesRead).toString('utf8'), uid: st.uid, mode: st.mode}
  } catch {
    return undefined
  } finally {
    await file?.close()
  }
}
