// An in-memory HostFs for unit tests of the effects: directories, files with modes and mounts,
// and a log of every call, so a test sees what the node would hold without touching a disk.
import {posix} from 'node:path'
import type {DirWatch, HostFile, HostFs, MountPoint, OwnershipResult, PathInfo, ReadHandle} from '../../src/host/port.js'
import {PathEscapeError} from '../../src/util/contained-path.js'
import {TooLargeError} from '../../src/util/errors.js'

/** An error with the code node:fs would give, which readers of the port look at. */
function fsError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${path}`), {code})
}

export class FakeHostFs implements HostFs {
  readonly dirs = new Map<string, number>([['/', 0o755]])
  readonly files = new Map<string, {data: Buffer; mode: number}>()
  readonly mounts: MountPoint[] = []
  /** Groups set by setGroupOwnership (an entry not listed has group 0). */
  readonly groups = new Map<string, number>()
  readonly calls: string[] = []

  private record(op: string, path: string): void {
    this.calls.push(`${op} ${path}`)
  }

  private parents(path: string, mode: number): void {
    for (let p = posix.dirname(path); !this.dirs.has(p); p = posix.dirname(p)) this.dirs.set(p, mode)
  }

  async mkdirp(path: string, mode = 0o750): Promise<void> {
    this.record('mkdirp', path)
    this.parents(path, mode)
    if (!this.dirs.has(path)) this.dirs.set(path, mode)
  }

  async mkdirPrivate(path: string): Promise<boolean> {
    this.record('mkdirPrivate', path)
    this.parents(path, 0o755)
    const made = !this.dirs.has(path)
    this.dirs.set(path, 0o750)
    return made
  }

  async removeAll(path: string): Promise<void> {
    this.record('removeAll', path)
    const under = (p: string): boolean => p === path || p.startsWith(`${path}/`)
    for (const p of [...this.dirs.keys()]) if (under(p)) this.dirs.delete(p)
    for (const p of [...this.files.keys()]) if (under(p)) this.files.delete(p)
  }

  async list(dir: string): Promise<string[]> {
    const names = [...this.dirs.keys(), ...this.files.keys()].filter((p) => p !== dir && posix.dirname(p) === dir)
    return names.map((p) => posix.basename(p))
  }

  async readDir(dir: string): Promise<string[]> {
    if (!this.dirs.has(dir)) throw fsError(this.files.has(dir) ? 'ENOTDIR' : 'ENOENT', dir)
    return this.list(dir)
  }

  /** Watches set up by watchDir; `change` tells them a name changed. */
  readonly watches = new Map<string, Set<(name: string | undefined) => void>>()

  watchDir(dir: string, onChange: (name: string | undefined) => void): DirWatch {
    if (!this.dirs.has(dir)) throw fsError('ENOENT', dir)
    const set = this.watches.get(dir) ?? new Set()
    set.add(onChange)
    this.watches.set(dir, set)
    return {close: () => void set.delete(onChange)}
  }

  async readBounded(path: string, limit: number): Promise<Buffer> {
    const file = this.files.get(path)
    if (!file) throw fsError(this.dirs.has(path) ? 'EISDIR' : 'ENOENT', path)
    if (file.data.length > limit) throw new TooLargeError(`larger than ${limit} bytes`)
    return file.data
  }

  async openRead(path: string): Promise<ReadHandle> {
    const file = this.files.get(path)
    if (!file) throw fsError(this.dirs.has(path) ? 'EISDIR' : 'ENOENT', path)
    return {
      size: async () => file.data.length,
      read: async (buf, offset, length, position) => file.data.copy(buf, offset, position, Math.min(file.data.length, position + length)),
      close: async () => undefined,
    }
  }

  async stat(path: string): Promise<PathInfo | undefined> {
    const file = this.files.get(path)
    const gid = this.groups.get(path) ?? 0
    if (file) return {type: 'file', size: file.data.length, mode: file.mode, gid}
    const dir = this.dirs.get(path)
    return dir === undefined ? undefined : {type: 'directory', size: 0, mode: dir, gid}
  }

  async realpath(path: string): Promise<string> {
    return path
  }

  async chmod(path: string, mode: number): Promise<void> {
    this.record('chmod', path)
    const file = this.files.get(path)
    if (file) file.mode = mode
    else if (this.dirs.has(path)) this.dirs.set(path, mode)
  }

  async readText(path: string): Promise<string> {
    return this.files.get(path)?.data.toString('utf8') ?? ''
  }

  async readSmallText(path: string, maxBytes: number): Promise<string | undefined> {
    const file = this.files.get(path)
    return file && file.data.length <= maxBytes ? file.data.toString('utf8') : undefined
  }

  async writeFile(path: string, data: string | Buffer, mode: number): Promise<void> {
    this.record('writeFile', path)
    this.files.set(path, {data: Buffer.from(data), mode})
  }

  async createFile(path: string, mode: number): Promise<void> {
    this.record('createFile', path)
    this.parents(path, 0o755)
    if (!this.files.has(path)) this.files.set(path, {data: Buffer.alloc(0), mode})
  }

  async rename(from: string, to: string): Promise<void> {
    this.record('rename', `${from} ${to}`)
    const file = this.files.get(from)
    if (file) this.files.set(to, file)
    this.files.delete(from)
  }

  async unlink(path: string): Promise<void> {
    this.record('unlink', path)
    this.files.delete(path)
  }

  async writeAtomicDir(dir: string, files: readonly HostFile[]): Promise<boolean> {
    this.record('writeAtomicDir', dir)
    let changed = false
    for (const f of files) {
      const path = posix.join(dir, f.path)
      const old = this.files.get(path)
      if (old && old.mode === f.mode && old.data.equals(f.data)) continue
      this.files.set(path, {data: f.data, mode: f.mode})
      changed = true
    }
    return changed
  }

  async resolveInside(base: string, sub: string, field: string): Promise<string> {
    if (sub.split('/').includes('..')) throw new PathEscapeError(field, `${JSON.stringify(sub)} must not contain '..'`)
    const path = posix.join(base, sub)
    await this.mkdirp(path)
    return path
  }

  async readFileInside(base: string, sub: string, limit: number, field: string): Promise<Buffer | undefined> {
    if (sub.startsWith('/') || sub.split('/').includes('..')) throw new PathEscapeError(field, `${JSON.stringify(sub)} must be a relative path without '..'`)
    const data = this.files.get(posix.join(base, sub))?.data
    if (data && data.length > limit) throw new RangeError(`${field}: ${JSON.stringify(sub)} is larger than ${limit} bytes`)
    return data
  }

  async setGroupOwnership(dir: string, gid: number, opts: {recursive: boolean; limit: number; mode: (type: PathInfo['type'], mode: number) => number | undefined}): Promise<OwnershipResult> {
    this.record('setGroupOwnership', dir)
    const under = (p: string): boolean => p.startsWith(`${dir}/`)
    const paths = [...(opts.recursive ? [...this.files.keys(), ...this.dirs.keys()].filter(under) : []), dir]
    const truncated = paths.length > opts.limit
    for (const p of paths.slice(0, truncated ? opts.limit - 1 : paths.length)) {
      const st = await this.stat(p)
      if (!st) continue
      this.groups.set(p, gid)
      const mode = opts.mode(st.type, st.mode)
      if (mode !== undefined) await this.chmod(p, mode)
    }
    return {entries: Math.min(paths.length, opts.limit), truncated}
  }

  async mountTmpfs(dir: string): Promise<void> {
    this.record('mountTmpfs', dir)
    this.mounts.push({path: dir, fsType: 'tmpfs'})
  }

  async unmount(dir: string): Promise<void> {
    this.record('unmount', dir)
    const i = this.mounts.findIndex((m) => m.path === dir)
    if (i >= 0) this.mounts.splice(i, 1)
  }

  async mountsUnder(dir: string): Promise<MountPoint[]> {
    return this.mounts.filter((m) => m.path === dir || m.path.startsWith(`${dir}/`)).sort((a, b) => b.path.length - a.path.length)
  }
}
