// HostFs on the real node: node:fs, mount(8), and the careful writers of atomic-dir.ts and
// subpath.ts. Only the composition root (and tests) pick this implementation.
import {chmod, lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat, unlink, writeFile} from 'node:fs/promises'
import {watch, type Stats} from 'node:fs'
import {dirname} from 'node:path'
import {writeAtomicDir} from './atomic-dir.js'
import {systemMounts} from './mounts.js'
import {PRIVATE_DIR_MODE, type DirWatch, type HostFs, type PathInfo, type ReadHandle} from './port.js'
import {readFileInside} from './read-inside.js'
import {readBoundedBytes, readBoundedSync} from './read-bounded.js'
import {setGroupOwnership} from './group-ownership.js'
import {resolveInside} from './subpath.js'

function typeOf(st: Stats): PathInfo['type'] {
  if (st.isFile()) return 'file'
  if (st.isDirectory()) return 'directory'
  if (st.isSymbolicLink()) return 'symlink'
  if (st.isSocket()) return 'socket'
  if (st.isCharacterDevice()) return 'char-device'
  if (st.isBlockDevice()) return 'block-device'
  return 'other'
}

const ignoreMissing = (err: NodeJS.ErrnoException): undefined => {
  if (err.code === 'ENOENT') return undefined
  throw err
}

export const nodeHostFs: HostFs = {
  async mkdirp(path, mode = PRIVATE_DIR_MODE) {
    await mkdir(path, {recursive: true, mode})
  },
  async mkdirPrivate(path, opts = {}) {
    // A root dir may be a link a user made; kube-node's own dirs below it may not.
    const look = (): Promise<Stats> => (opts.tighten === true ? lstat(path) : stat(path))
    // Every record write ensures its pod's three dirs, which nearly always exist: one look each
    // then, not two mkdir and a look (at 110 pods, thousands of thread-pool round trips saved).
    let st = await look().catch(ignoreMissing)
    let made = false
    if (st === undefined) {
      await mkdir(dirname(path), {recursive: true, mode: 0o755})
      made = await mkdir(path, {mode: PRIVATE_DIR_MODE}).then(
        () => true,
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err
          return false
        },
      )
      st = await look()
    }
    if (!st.isDirectory()) throw new Error(`${path} is not a directory (a symlink or a file is in its place)`)
    if (opts.tighten === true && (st.mode & 0o7777) !== PRIVATE_DIR_MODE) await chmod(path, PRIVATE_DIR_MODE)
    return made
  },
  async removeAll(path) {
    await rm(path, {recursive: true, force: true})
  },
  list: (dir) => readdir(dir).catch(() => [] as string[]),
  readDir: (dir) => readdir(dir),
  watchDir,
  async stat(path, opts = {}) {
    const st = await (opts.follow === true ? stat(path) : lstat(path)).catch(ignoreMissing)
    return st && {type: typeOf(st), size: st.size, mode: st.mode & 0o7777, gid: st.gid, ino: st.ino, version: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`, changedAtMs: st.ctimeMs, modifiedAtMs: st.mtimeMs}
  },
  realpath: (path) => realpath(path),
  chmod: (path, mode) => chmod(path, mode),
  readText: (path) => readFile(path, 'utf8').catch(() => ''),
  readBounded: readBoundedBytes,
  openRead,
  // Five thread-pool round trips (lstat, open, fstat, read, close) cost more than this read.
  async readSmallText(path, maxBytes) {
    try {
      return readBoundedSync(path, maxBytes, {follow: false})
    } catch {
      return undefined
    }
  },
  async writeFile(path, data, mode) {
    await writeFile(path, data, {mode})
    await chmod(path, mode) // the umask may have removed bits
  },
  async createFile(path, mode) {
    await mkdir(dirname(path), {recursive: true, mode: 0o755})
    // O_CREAT without O_TRUNC: never clobber a file that appeared meanwhile.
    await (await open(path, 'a', mode)).close()
  },
  rename: (from, to) => rename(from, to),
  async unlink(path) {
    await unlink(path).catch(ignoreMissing)
  },
  writeAtomicDir,
  resolveInside,
  readFileInside,
  setGroupOwnership,
  ...systemMounts,
}

async function openRead(path: string): Promise<ReadHandle> {
  const fh = await open(path, 'r')
  return {
    size: async () => (await fh.stat()).size,
    read: async (buf, offset, length, position) => (await fh.read(buf, offset, length, position)).bytesRead,
    close: () => fh.close(),
  }
}

function watchDir(dir: string, onChange: (name: string | undefined) => void, onError: () => void): DirWatch {
  // Not persistent: a watch alone never keeps the process alive.
  const watcher = watch(dir, {persistent: false}, (_event, file) => onChange(typeof file === 'string' ? file : undefined))
  watcher.on('error', onError)
  return {close: () => watcher.close()}
}
