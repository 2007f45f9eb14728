// Files that hold credentials for manifest URLs (the --config file when it has
// staticPodURLHeader, --manifest-url-header-file) must be readable by their owner only: a header
// such as `Authorization: Bearer …` in a 0644 file is every local user's. kube-node reads them all
// the same (the administrator decides) and says once, at start, what to change.
import type {HostFs} from '../host/port.js'
import type {Logger} from '../util/logger.js'

export interface CredentialFile {
  path: string
  /** Where it was given, e.g. `--manifest-url-header-file`. */
  source: string
}

/** Pure: who besides the owner may read a file with these permission bits; undefined when nobody. */
export function otherReaders(mode: number): string | undefined {
  const group = (mode & 0o040) !== 0
  const others = (mode & 0o004) !== 0
  return group && others ? 'its group and every user' : group ? 'its group' : others ? 'every user' : undefined
}

/** Logs one warning per credentials file that its group or other users can read. */
export async function warnReadableCredentialFiles(fs: Pick<HostFs, 'stat'>, logger: Logger, files: readonly CredentialFile[]): Promise<void> {
  for (const f of files) {
    // A missing or unreadable file is reported where it is read; this only looks at the mode.
    const st = await fs.stat(f.path, {follow: true}).catch(() => undefined)
    const readers = st && otherReaders(st.mode)
    if (!readers) continue
    logger.warn(`A file holding credentials is readable by ${readers}: make it readable by its owner only`, {
      file: f.path,
      source: f.source,
      mode: `0${(st.mode & 0o777).toString(8)}`,
      fix: `chmod 600 ${f.path}`,
    })
  }
}
