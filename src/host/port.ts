// The host port: every file, directory and mount operation kube-node's effects make on the node,
// behind one interface (the way cri/port.ts stands for the runtime). apply/ speaks only to this;
// node-host-fs.ts implements it, and tests can fake any part of it.

/** kube-node's root dir, `pods/` and each pod's dir: owner and group only, as the kubelet's. */
export const PRIVATE_DIR_MODE = 0o750

/** A file to write: a path relative to its directory, the bytes and the permission bits. */
export interface HostFile {
  path: string
  data: Buffer
  /** Permission bits (0–0777), applied exactly (the umask does not apply). */
  mode: number
}

/** What a path is, without following a final symlink unless asked. */
export interface PathInfo {
  type: 'file' | 'directory' | 'symlink' | 'socket' | 'char-device' | 'block-device' | 'other'
  size: number
  /** Permission bits. */
  mode: number
  /** The owning group, where the implementation knows it (the fsGroup ownership check). */
  gid?: number
  /** The inode, where the implementation knows it: a path replaced by a new file or directory (a log rotated) has a new one. */
  ino?: number
  /**
   * Where the implementation knows it: the file's device, inode, size and modification and change
   * times in one string. Any write, replacement or rename changes it, so a reader that saw the
   * same version before has the same content (within the file system's clock tick: see changedAtMs).
   */
  version?: string
  /** When the file last changed (its ctime), in ms since the epoch, with the version. */
  changedAtMs?: number
  /** When the file's content was last written (its mtime), in ms since the epoch, where the implementation knows it. */
  modifiedAtMs?: number
}

/** An open file read at positions (a container's log, a termination message): no whole-file reads of what a container wrote. */
export interface ReadHandle {
  /** The file's size now. */
  size(): Promise<number>
  /** Reads up to `length` bytes at `position` into `buf` at `offset`; the bytes read (0 at the end). */
  read(buf: Buffer, offset: number, length: number, position: number): Promise<number>
  close(): Promise<void>
}

/** A watch of a directory's entries (HostFs.watchDir). */
export interface DirWatch {
  close(): void
}

/** What a group-ownership walk did (HostFs.setGroupOwnership). */
export interface OwnershipResult {
  /** Entries looked at, the root included. */
  entries: number
  /** True when the walk stopped at its limit (of entries or depth) and left the rest as it was. */
  truncated: boolean
}

/** A mount table entry. */
export interface MountPoint {
  path: string
  fsType: string
}

export interface HostFs {
  // ---- directories
  /** Creates a directory and its parents; no error if it exists. */
  mkdirp(path: string, mode?: number): Promise<void>
  /**
   * Makes `path` a directory of mode 0750 (parents as mkdirp); an existing one is tightened only
   * with `tighten` (kube-node's own `pods/` and pod dirs, never a root dir a user pointed at, which
   * could be `/`); refuses a symlink or a non-directory in its place. True when this call made it.
   */
  mkdirPrivate(path: string, opts?: {tighten?: boolean}): Promise<boolean>
  /** Removes a file or directory tree; no error if it is missing. */
  removeAll(path: string): Promise<void>
  /** Names in a directory; none when it is missing. */
  list(dir: string): Promise<string[]>
  /** Names in a directory; errors (ENOENT, EACCES…) as they come, for a reader that reports them. */
  readDir(dir: string): Promise<string[]>
  /**
   * Watches the entries of `dir`: `onChange` with the name that changed (when known), `onError`
   * once the watch broke (the directory went away). Throws when it cannot watch at all.
   */
  watchDir(dir: string, onChange: (name: string | undefined) => void, onError: () => void): DirWatch
  // ---- files
  /** What is at `path` (the target of a final link when `follow`); undefined when nothing is. */
  stat(path: string, opts?: {follow?: boolean}): Promise<PathInfo | undefined>
  /** The real path, every link resolved. */
  realpath(path: string): Promise<string>
  chmod(path: string, mode: number): Promise<void>
  /**
   * The text of a regular file (not a link) of at most `maxBytes`; undefined when it is missing,
   * larger or anything else. For kube-node's own small records, read in one synchronous pass.
   */
  readSmallText(path: string, maxBytes: number): Promise<string | undefined>
  /** The text of a file; '' when it cannot be read. */
  readText(path: string): Promise<string>
  /**
   * The bytes of a file named by a user (a flag's file, a manifest), following links, whatever it
   * is: a TooLargeError beyond `limit` bytes (a FIFO or /dev/zero must not fill the memory),
   * other errors (ENOENT…) as they come.
   */
  readBounded(path: string, limit: number): Promise<Buffer>
  /** Opens a file to read at positions; errors (ENOENT…) as they come. */
  openRead(path: string): Promise<ReadHandle>
  /** Writes a whole file with exactly this mode. */
  writeFile(path: string, data: string | Buffer, mode: number): Promise<void>
  /** Creates an empty file (and its parents) unless one exists; never truncates. */
  createFile(path: string, mode: number): Promise<void>
  rename(from: string, to: string): Promise<void>
  /** Removes a file; no error if it is missing. */
  unlink(path: string): Promise<void>
  // ---- what only careful code may do
  /**
   * Writes `files` into `dir` so that a reader sees either the old set or the new one, never a
   * mix (the kubelet's AtomicWriter). False when they were already current.
   */
  writeAtomicDir(dir: string, files: readonly HostFile[]): Promise<boolean>
  /**
   * The real path of the relative path `sub` inside `base`, creating missing directories there;
   * a PathEscapeError naming `field` when a link or '..' would leave `base`.
   */
  resolveInside(base: string, sub: string, field: string): Promise<string>
  /**
   * The bytes of the regular file at the relative path `sub` inside `base` (a file a container
   * wrote), never following a link at any step and never blocking on a FIFO; undefined when it
   * does not exist. Throws naming `field` for '..', a link, a non-regular file or more than `limit` bytes.
   */
  readFileInside(base: string, sub: string, limit: number, field: string): Promise<Buffer | undefined>
  /**
   * Gives the directory `dir` and, with `recursive`, what it holds to the group `gid` (the
   * owner stays), with the mode `mode(type, oldMode)` decides (undefined keeps it); children
   * before their directory, as the kubelet's walk. Nothing is followed: every entry is reached
   * through its parent's open descriptor, links get only their own group, FIFOs, sockets and
   * devices are never opened, and nothing on another filesystem (a mount below `dir`) is touched.
   * Stops after `limit` entries (`truncated`).
   */
  setGroupOwnership(dir: string, gid: number, opts: {recursive: boolean; limit: number; mode: (type: PathInfo['type'], mode: number) => number | undefined}): Promise<OwnershipResult>
  // ---- mounts
  /** Mounts a new tmpfs on `dir`, limited to sizeBytes when given (else the kernel's default), its root of `mode` when given (else 1777). */
  mountTmpfs(dir: string, sizeBytes?: number, mode?: number): Promise<void>
  unmount(dir: string): Promise<void>
  /** Mount points at `dir` or below it, deepest first. */
  mountsUnder(dir: string): Promise<MountPoint[]>
}

/** What a measure of a directory tree found (host/disk-usage.ts). */
export interface DiskUsage {
  /** Bytes of disk the tree uses (allocated blocks, each hard-linked file once). */
  bytes: number
  /** True when the measure stopped at its entry cap: `bytes` is then a lower bound. */
  truncated: boolean
}

/**
 * Measures a directory a container writes (an emptyDir on disk, for the eviction manager's
 * sizeLimit rule): never following a link, staying on the directory's filesystem, visiting a
 * bounded number of entries. Undefined when `dir` is missing or not a directory.
 */
export interface DiskUsageMeter {
  measure(dir: string): Promise<DiskUsage | undefined>
}
