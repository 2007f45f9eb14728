// The kubelet's AtomicWriter, simplified: a directory of files that a reader (a container that
// mounts it) sees either wholly old or wholly new. Files go into a hidden payload directory,
// `..data` is switched to it by one rename(2), and each top-level name links through `..data`.
// Nothing is followed that kube-node did not write.
import {chmod, lstat, mkdir, mkdtemp, open, readdir, readlink, rename, rm, symlink, writeFile} from 'node:fs/promises'
import {constants} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import type {HostFile} from './port.js'


/** The atomic writer's link to the current payload directory. */
export const DATA_LINK = '..data'
const PAYLOAD_PREFIX = '..payload-'
const DATA_TMP_LINK = '..data_tmp'
const LINK_TMP = '..link_tmp'

/** Regular files below `root`, as relative paths; a link or anything else makes it undefined. */
async function listFiles(root: string, rel = ''): Promise<string[] | undefined> {
  const out: string[] = []
  for (const e of await readdir(join(root, rel), {withFileTypes: true})) {
    const p = rel ? `${rel}/${e.name}` : e.name
    if (e.isDirectory()) {
      const inner = await listFiles(root, p)
      if (!inner) return undefined
      out.push(...inner)
    } else if (e.isFile()) out.push(p)
    else return undefined
  }
  return out
}

/**
 * True when the current payload holds exactly these files with this content and mode. Nothing
 * is followed that kube-node did not write: `..data` must name one of its payload directories,
 * and every file is opened without following links.
 */
async function samePayload(dir: string, files: readonly HostFile[]): Promise<boolean> {
  try {
    const target = await readlink(join(dir, DATA_LINK))
    if (!target.startsWith(PAYLOAD_PREFIX) || target.includes('/')) return false
    const current = join(dir, target)
    if (!(await lstat(current)).isDirectory()) return false
    const existing = await listFiles(current)
    if (!existing || existing.length !== files.length) return false
    for (const f of files) {
      const fh = await open(join(current, f.path), constants.O_RDONLY | constants.O_NOFOLLOW)
      try {
        const st = await fh.stat()
        if (!st.isFile() || (st.mode & 0o777) !== f.mode || !(await fh.readFile()).equals(f.data)) return false
      } finally {
        await fh.close()
      }
    }
  } catch {
    return false
  }
  return true
}

async function replaceSymlink(dir: string, target: string, link: string): Promise<void> {
  // A name starting with '..' cannot clash with a file of the volume.
  const tmp = join(dir, LINK_TMP)
  await rm(tmp, {force: true})
  await symlink(target, tmp)
  await rename(tmp, link)
}

/**
 * Writes a projected volume: the files go into a new hidden payload directory, `..data` is
 * switched to it in one rename, and each top-level name is a symlink through `..data`. A
 * container (which mounts `dir`) sees either the old set of files or the new one, never a mix.
 * Returns false when the files were already current.
 */
export async function writeAtomicDir(dir: string, files: readonly HostFile[]): Promise<boolean> {
  await mkdir(dir, {recursive: true, mode: 0o755})
  if (await samePayload(dir, files)) return false
  const payload = await mkdtemp(join(dir, PAYLOAD_PREFIX))
  try {
    // mkdtemp makes 0700; containers running as other users must be able to read through it.
    await chmod(payload, 0o755)
    for (const f of files) {
      const path = join(payload, f.path)
      await mkdir(dirname(path), {recursive: true, mode: 0o755})
      await writeFile(path, f.data, {mode: f.mode})
      await chmod(path, f.mode) // the umask may have removed bits
    }
  } catch (err) {
    // A payload left half written (a full volume) would hold its space until the next good write.
    await rm(payload, {recursive: true, force: true}).catch(() => undefined)
    throw err
  }
  await rm(join(dir, DATA_TMP_LINK), {force: true})
  await symlink(basename(payload), join(dir, DATA_TMP_LINK))
  // The switch: rename(2) replaces `..data` in one step.
  await rename(join(dir, DATA_TMP_LINK), join(dir, DATA_LINK))

  const top = new Set(files.map((f) => f.path.split('/')[0] ?? f.path))
  for (const name of top) {
    const link = join(dir, name)
    const want = `${DATA_LINK}/${name}`
    const have = await readlink(link).catch(() => undefined)
    if (have === want) continue
    if (have === undefined) await rm(link, {recursive: true, force: true})
    await replaceSymlink(dir, want, link)
  }
  for (const e of await readdir(dir)) {
    const stale = e.startsWith(PAYLOAD_PREFIX) ? e !== basename(payload) : !e.startsWith('..') && !top.has(e)
    if (stale) await rm(join(dir, e), {recursive: true, force: true})
  }
  return true
}
