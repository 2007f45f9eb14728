// A volumeMount's subPath resolved on the host the safe way (the CVE-2017-1002101 class): the
// walk starts at the volume's real directory and, component by component, resolves symlinks and
// checks that every step stays inside the volume; missing directories are created there (with
// the volume's own mode, as the kubelet does) and never through a link. The runtime is then
// handed the fully resolved path, so a link a container planted cannot redirect the mount.
// What remains: a container sharing the volume could swap a directory of that resolved path for a
// link in the instant between this check and the runtime's mount (the kubelet closes it by
// mounting an open file descriptor, which needs mount(2) from here); containers of one pod only.
import {lstat, mkdir, realpath, stat} from 'node:fs/promises'
import {join} from 'node:path'
import {isInside, PathEscapeError} from '../../util/contained-path.js'
import type {Mount} from '../../cri/api.js'
import type {Container, Pod} from '../../api/types.js'
import {mountSubPath} from '../../kuberuntime/container-config.js'
import {volumeHostPath} from './registry.js'

/** The real path of `sub` inside `volumeDir`; PathEscapeError naming `field` when it leaves it. */
export async function resolveSubPath(volumeDir: string, sub: string, field: string): Promise<string> {
  const base = await realpath(volumeDir)
  const mode = (await stat(base)).mode & 0o7777
  let cur = base
  for (const part of sub.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') throw new PathEscapeError(field, `${JSON.stringify(sub)} must not contain '..'`)
    const next = join(cur, part)
    let st = await lstat(next).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined
      throw err
    })
    if (!st) {
      // `cur` is real and inside: the new directory cannot land anywhere else.
      await mkdir(next, {mode}).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err
      })
      st = await lstat(next)
    }
    const real = st.isSymbolicLink() ? await realpath(next) : next
    if (!isInside(base, real)) {
      throw new PathEscapeError(field, `${JSON.stringify(sub)} leads outside its volume through a symbolic link`)
    }
    cur = real
  }
  return cur
}

/** Points every mount with a subPath (or subPathExpr) at its safely resolved host path. */
export async function secureSubPathMounts(pod: Pod, container: Container, rootDir: string, mounts: Mount[], vars: ReadonlyMap<string, string>): Promise<void> {
  const uid = pod.metadata?.uid ?? ''
  for (const [i, vm] of (container.volumeMounts ?? []).entries()) {
    if (!vm.subPath && !vm.subPathExpr) continue
    const field = `container ${container.name}, volumeMounts[${i}] (${vm.name})`
    const sub = mountSubPath(vm, vars, field)
    const volume = (pod.spec?.volumes ?? []).find((v) => v.name === vm.name)
    const base = volume ? volumeHostPath(rootDir, uid, volume) : undefined
    const mount = mounts.find((m) => m.containerPath === vm.mountPath)
    if (!sub || base === undefined || !mount) continue
    mount.hostPath = await resolveSubPath(base, sub, field)
  }
}
