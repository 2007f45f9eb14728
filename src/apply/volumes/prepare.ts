// The host effects of volumes, which the kinds in kinds/ put together: hostPath type checks
// (pkg/volume/hostpath), emptyDir directories and tmpfs mounts (pkg/volume/emptydir), and the
// files of data volumes, written so that a reader never sees half of an update (the kubelet's
// AtomicWriter, simplified). cleanupVolumes undoes the mounts before the pod dir is removed.
import {execFile} from 'node:child_process'
import {chmod, lstat, mkdir, mkdtemp, open, readdir, readFile, readlink, realpath, rename, rm, stat, symlink, writeFile} from 'node:fs/promises'
import {constants} from 'node:fs'
import type {Stats} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {promisify} from 'node:util'
import type {ObjectStore, StaticPod, Volume} from '../../api/types.js'
import {ConfigError} from '../../kuberuntime/errors.js'
import {podDataDir} from '../../kuberuntime/naming.js'
import type {ProjectedFile} from './projection.js'
import type {VolumeDeps, VolumeKind} from './kind.js'
import {quantityValue} from '../../util/quantity.js'
import {errorMessage} from '../../util/errors.js'

const run = promisify(execFile)

/** A mount table entry. */
export interface MountPoint {
  path: string
  fsType: string
}

/** The mount operations emptyDir `medium: Memory` needs; injectable for tests. */
export interface Mounter {
  /** Mounts a new tmpfs on `dir`, limited to sizeBytes when given (else the kernel's default). */
  mountTmpfs(dir: string, sizeBytes?: number): Promise<void>
  unmount(dir: string): Promise<void>
  /** Mount points at `dir` or below it, deepest first. */
  mountsUnder(dir: string): Promise<MountPoint[]>
}

// /proc/self/mountinfo escapes space, tab, newline and backslash as octal.
function unescapeMountPath(p: string): string {
  return p.replace(/\\([0-7]{3})/g, (_m, oct: string) => String.fromCharCode(parseInt(oct, 8)))
}

/** mount(8) and umount(8), and the mount table of /proc/self/mountinfo. */
export const systemMounter: Mounter = {
  async mountTmpfs(dir, sizeBytes) {
    const opts = sizeBytes !== undefined && sizeBytes > 0 ? ['-o', `size=${sizeBytes}`] : []
    await run('mount', ['-t', 'tmpfs', ...opts, 'tmpfs', dir])
  },
  async unmount(dir) {
    try {
      await run('umount', [dir])
    } catch {
      // Busy (a process still has it open): detach it now, the kernel frees it later.
      await run('umount', ['-l', dir])
    }
  },
  async mountsUnder(dir) {
    let real: string
    try {
      real = await realpath(dir)
    } catch {
      return []
    }
    const table = await readFile('/proc/self/mountinfo', 'utf8')
    const out: MountPoint[] = []
    for (const line of table.split('\n')) {
      const [left = '', right = ''] = line.split(' - ')
      const path = unescapeMountPath(left.split(' ')[4] ?? '')
      if (path === real || path.startsWith(real.endsWith('/') ? real : real + '/')) out.push({path, fsType: right.split(' ')[0] ?? ''})
    }
    return out.sort((a, b) => b.path.length - a.path.length)
  },
}

const NO_OBJECTS: ObjectStore = {configMap: () => undefined, secret: () => undefined}

/**
 * Writes the files kube-node computes for a data volume (configMap, secret, downwardAPI,
 * projected). Like the kubelet, secrets (also inside projected and downwardAPI volumes) live in
 * memory so they never reach the disk; configMaps are written to disk.
 */
export async function prepareProjected(deps: VolumeDeps, sp: StaticPod, kind: VolumeKind, v: Volume, dir: string, opts: {tmpfs: boolean}): Promise<void> {
  const p = kind.project?.(v, {pod: sp.pod, objects: deps.objects ?? NO_OBJECTS, podIP: '', hostIP: deps.hostIP ?? '', nodeCapacity: deps.nodeCapacity})
  if (p === undefined) return
  if ('error' in p) throw new ConfigError(`volume "${v.name}": ${p.error}`)
  await mkdir(dir, {recursive: true, mode: 0o755})
  if (opts.tmpfs) await ensureTmpfs(deps, v.name, dir, undefined)
  await writeProjectedFiles(dir, p.files)
}

/**
 * Unmounts every mount under the pod's data dir (tmpfs of emptyDir Memory and secret volumes),
 * deepest first, so that the
 * directory can then be removed. Call it before removing `podDataDir(rootDir, uid)`.
 */
export async function cleanupVolumes(deps: Pick<VolumeDeps, 'rootDir' | 'logger' | 'mounter'>, uid: string): Promise<void> {
  const mounter = deps.mounter ?? systemMounter
  for (const m of await mounter.mountsUnder(podDataDir(deps.rootDir, uid))) {
    try {
      await mounter.unmount(m.path)
    } catch (err) {
      deps.logger?.warn('Failed to unmount volume', {uid, path: m.path, err: errorMessage(err)})
    }
  }
}

export async function prepareEmptyDir(deps: VolumeDeps, v: Volume, dir: string): Promise<void> {
  await deps.fs.mkdirp(dir, 0o777)
  if (v.emptyDir?.medium !== 'Memory') {
    // World-writable like the kubelet's, so containers running as whichever user can write.
    await chmod(dir, 0o777)
    return
  }
  const size = v.emptyDir.sizeLimit !== undefined ? quantityValue(v.emptyDir.sizeLimit) : undefined
  await ensureTmpfs(deps, v.name, dir, size)
  await chmod(dir, 0o777)
}

/** Mounts a tmpfs on `dir` unless one is there; when that fails, the directory stays on disk. */
async function ensureTmpfs(deps: VolumeDeps, volumeName: string, dir: string, sizeBytes: number | undefined): Promise<void> {
  const mounter = deps.mounter ?? systemMounter
  const real = await realpath(dir)
  if ((await mounter.mountsUnder(dir)).some((m) => m.path === real && m.fsType === 'tmpfs')) return
  try {
    await mounter.mountTmpfs(dir, sizeBytes)
  } catch (err) {
    // Not root, or no mount(8): the volume still works, only on disk.
    deps.logger?.warn('Cannot mount tmpfs for a memory-backed volume; using a directory on disk', {
      volume: volumeName,
      path: dir,
      err: errorMessage(err),
    })
  }
}

// ---- hostPath ----

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}

const EXPECTED: Record<string, [string, (s: Stats) => boolean]> = {
  Directory: ['a directory', (s) => s.isDirectory()],
  DirectoryOrCreate: ['a directory', (s) => s.isDirectory()],
  File: ['a file', (s) => s.isFile()],
  FileOrCreate: ['a file', (s) => s.isFile()],
  Socket: ['a socket', (s) => s.isSocket()],
  CharDevice: ['a character device', (s) => s.isCharacterDevice()],
  BlockDevice: ['a block device', (s) => s.isBlockDevice()],
}

/**
 * The kubelet's hostPath type check: the *OrCreate types create what is missing (a 0755
 * directory, or an empty 0644 file with its parent directories), the others must already exist
 * with the right type, and '' checks nothing.
 */
export async function checkHostPath(volumeName: string, path: string, type: string): Promise<void> {
  const expected = Object.hasOwn(EXPECTED, type) ? EXPECTED[type] : undefined
  if (!expected) {
    if (type === '') return
    throw new ConfigError(`volume "${volumeName}": unknown hostPath type "${type}"`)
  }
  const fail = (why: string): ConfigError => new ConfigError(`volume "${volumeName}": hostPath type check failed: ${path} ${why} (type ${type})`)
  let st = await statOrUndefined(path)
  if (!st) {
    if (type === 'DirectoryOrCreate') {
      await mkdir(path, {recursive: true, mode: 0o755})
      await chmod(path, 0o755)
    } else if (type === 'FileOrCreate') {
      await mkdir(dirname(path), {recursive: true, mode: 0o755})
      // O_CREAT without O_TRUNC: never clobber a file that appeared meanwhile.
      await (await open(path, 'a', 0o644)).close()
    } else {
      throw fail('does not exist')
    }
    st = await stat(path)
  }
  if (!expected[1](st)) throw fail(`is not ${expected[0]}`)
}

// ---- projected files ----

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
async function samePayload(dir: string, files: readonly ProjectedFile[]): Promise<boolean> {
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
export async function writeProjectedFiles(dir: string, files: readonly ProjectedFile[]): Promise<boolean> {
  await mkdir(dir, {recursive: true, mode: 0o755})
  if (await samePayload(dir, files)) return false
  const payload = await mkdtemp(join(dir, PAYLOAD_PREFIX))
  // mkdtemp makes 0700; containers running as other users must be able to read through it.
  await chmod(payload, 0o755)
  for (const f of files) {
    const path = join(payload, f.path)
    await mkdir(dirname(path), {recursive: true, mode: 0o755})
    await writeFile(path, f.data, {mode: f.mode})
    await chmod(path, f.mode) // the umask may have removed bits
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
