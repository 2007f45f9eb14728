// The host effects of volumes, which the kinds in kinds/ put together: hostPath type checks
// (pkg/volume/hostpath), emptyDir directories and tmpfs mounts (pkg/volume/emptydir), and the
// files of data volumes, written so that a reader never sees half of an update
// (HostFs.writeAtomicDir). cleanupVolumes undoes the mounts before the pod dir is removed.
import type {ObjectStore, StaticPod, Volume} from '../api/types.js'
import {ConfigError, VolumeMountError} from '../kuberuntime/errors.js'
import {podDataDir} from '../kuberuntime/naming.js'
import type {HostFs, PathInfo} from '../host/port.js'
import type {VolumeDeps, VolumeKind} from './kind.js'
import {quantityValue} from '../util/quantity.js'
import {errorMessage} from '../util/errors.js'
import {ownedMode, podFsGroup} from './ownership.js'
import type {Logger} from '../util/logger.js'

const NO_OBJECTS: ObjectStore = {configMap: () => undefined, secret: () => undefined}

/**
 * Writes the files kube-node computes for a data volume (configMap, secret, downwardAPI,
 * projected). Like the kubelet, secrets (also inside projected and downwardAPI volumes) live in
 * memory so they never reach the disk; configMaps are written to disk.
 */
export async function prepareProjected(deps: VolumeDeps, pod: StaticPod['pod'], kind: VolumeKind, v: Volume, dir: string, opts: {tmpfs: boolean}): Promise<void> {
  const p = kind.project?.(v, {pod, objects: deps.objects ?? NO_OBJECTS, podIP: '', hostIP: deps.hostIP ?? '', nodeCapacity: deps.nodeCapacity})
  if (p === undefined) return
  if ('error' in p) throw new ConfigError(`volume "${v.name}": ${p.error}`)
  await deps.fs.mkdirp(dir, 0o755)
  if (opts.tmpfs) await ensureTmpfs(deps, v.name, dir, undefined)
  // Under fsGroup the files are written with the mode the ownership walk gives them (ownership.ts),
  // so that an unchanged volume compares equal on the next prepare instead of being rewritten.
  const owned = kind.fsGroup !== undefined && podFsGroup(pod.spec) !== undefined
  await deps.fs.writeAtomicDir(dir, owned ? p.files.map((f) => ({...f, mode: ownedMode('file', f.mode, kind.readOnly) ?? f.mode})) : p.files)
}

/**
 * Unmounts every mount under the pod's data dir (tmpfs of emptyDir Memory and secret volumes),
 * deepest first, so that the directory can then be removed. Call it before removing
 * `podDataDir(rootDir, uid)`.
 */
export async function cleanupVolumes(deps: {fs: HostFs; rootDir: string; logger?: Logger | undefined}, uid: string): Promise<void> {
  for (const m of await deps.fs.mountsUnder(podDataDir(deps.rootDir, uid))) {
    try {
      await deps.fs.unmount(m.path)
    } catch (err) {
      deps.logger?.warn('Failed to unmount volume', {uid, path: m.path, err: errorMessage(err)})
    }
  }
}

/**
 * emptyDir's `mode` (Kubernetes v1.37, alpha, KEP-5502): the directory's permission bits, sticky
 * bit included. The generated v1.36 type does not have it yet; a manifest accepted with
 * `--validate=warn` carries it, and the schema of v1.37 makes it a known field.
 */
export type EmptyDirSource = NonNullable<Volume['emptyDir']> & {mode?: number}

/** The highest emptyDir mode the API accepts: rwx for all and the sticky bit. */
export const EMPTY_DIR_MAX_MODE = 0o1777

export async function prepareEmptyDir(deps: VolumeDeps, v: Volume, dir: string): Promise<void> {
  const source: EmptyDirSource | undefined = v.emptyDir
  // World-writable like the kubelet's by default, so containers running as whichever user can
  // write; the mode the manifest asks for otherwise.
  const want = source?.mode ?? 0o777
  const bits = source?.mode === undefined ? 0o777 : EMPTY_DIR_MAX_MODE
  await deps.fs.mkdirp(dir, want & 0o777)
  if (source?.medium === 'Memory') {
    const size = source.sizeLimit !== undefined ? quantityValue(source.sizeLimit) : undefined
    await ensureTmpfs(deps, v.name, dir, size, source.mode)
  }
  // Like the kubelet, only when the permission bits differ: the setgid bit fsGroup adds stays.
  const current = (await deps.fs.stat(dir, {follow: true}))?.mode ?? 0
  if ((current & bits) !== want) await deps.fs.chmod(dir, want | (current & 0o2000))
}

/**
 * Mounts a tmpfs on `dir` unless one is there. A memory-backed volume that cannot be mounted fails
 * the container (CreateContainerConfigError naming the volume), as the kubelet's MountVolume.SetUp
 * fails (FailedMount): a directory on disk instead would keep secrets on the disk and ignore sizeLimit.
 */
async function ensureTmpfs(deps: VolumeDeps, volumeName: string, dir: string, sizeBytes: number | undefined, mode?: number): Promise<void> {
  const real = await deps.fs.realpath(dir)
  if ((await deps.fs.mountsUnder(dir)).some((m) => m.path === real && m.fsType === 'tmpfs')) return
  try {
    await deps.fs.mountTmpfs(dir, sizeBytes, mode)
  } catch (err) {
    throw new VolumeMountError(`volume "${volumeName}": MountVolume.SetUp failed: it must be memory-backed and a tmpfs cannot be mounted on ${dir}: ${errorMessage(err)} (kube-node does not fall back to a directory on disk)`)
  }
}

/** The hostPath types besides '' (no check), as the API spells them. */
export const HOST_PATH_TYPES = ['DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'] as const

const EXPECTED: Record<string, [string, PathInfo['type']]> = {
  Directory: ['a directory', 'directory'],
  DirectoryOrCreate: ['a directory', 'directory'],
  File: ['a file', 'file'],
  FileOrCreate: ['a file', 'file'],
  Socket: ['a socket', 'socket'],
  CharDevice: ['a character device', 'char-device'],
  BlockDevice: ['a block device', 'block-device'],
}

/**
 * The kubelet's hostPath type check: the *OrCreate types create what is missing (a 0755
 * directory, or an empty 0644 file with its parent directories), the others must already exist
 * with the right type, and '' checks nothing.
 */
export async function checkHostPath(fs: HostFs, volumeName: string, path: string, type: string): Promise<void> {
  const expected = Object.hasOwn(EXPECTED, type) ? EXPECTED[type] : undefined
  if (!expected) {
    if (type === '') return
    throw new ConfigError(`volume "${volumeName}": unknown hostPath type "${type}"`)
  }
  const fail = (why: string): ConfigError => new ConfigError(`volume "${volumeName}": hostPath type check failed: ${path} ${why} (type ${type})`)
  let st = await fs.stat(path, {follow: true})
  if (!st) {
    if (type === 'DirectoryOrCreate') {
      await fs.mkdirp(path, 0o755)
      await fs.chmod(path, 0o755)
    } else if (type === 'FileOrCreate') {
      await fs.createFile(path, 0o644)
    } else {
      throw fail('does not exist')
    }
    st = await fs.stat(path, {follow: true})
  }
  if (st?.type !== expected[1]) throw fail(`is not ${expected[0]}`)
}
