// Reading manifest locations: the only module of manifest/ that does I/O, all of it injectable.
// A directory yields its `*.yaml`, `*.yml` and `*.json` files (names starting with '.' skipped,
// sorted by name, not recursive); a URL is fetched with a 10s timeout; `-` reads standard input.
// Every file, body or input is limited to 10 MiB, like the kubelet's maxConfigLength. Files are
// read through the host port (hostManifestIO), as every file access outside host/.
import {join} from 'node:path'
import type {PodSource} from '../api/types.js'
import type {HostFs} from '../host/port.js'
import {errorMessage, InvalidInputError, TooLargeError, type FieldIssue} from '../util/errors.js'
import {parseLocation, sourceKind, type ManifestLocation} from './location.js'
import {MAX_DIRECTORY_BYTES, MAX_DIRECTORY_FILES, MAX_MANIFEST_BYTES} from './limits.js'
import {getSameOrigin, type GetInit} from './fetch-url.js'
import {redactUrl, scrub, urlSecrets} from './redact-url.js'

export {MAX_MANIFEST_BYTES} from './limits.js'
export const HTTP_TIMEOUT_MS = 10_000
const EXTENSIONS = ['.yaml', '.yml', '.json']

/** One file, body or input to decode. `location` is what issues name (a file path, URL or `-`). */
export interface ManifestBlob {
  location: string
  source: PodSource['kind']
  text: string
  /** The directory it was read from: the files of one directory share its limits. */
  directory?: string
  /** Not read: the reader's `unchanged` said it holds this version of the file already (text is empty). */
  unchanged?: true
}

export interface FileStat {
  isFile(): boolean
  isDirectory(): boolean
  size: number
  /** PathInfo's version and ctime, where the host knows them. */
  version?: string | undefined
  changedAtMs?: number | undefined
}

/** The part of a fetch Response this module reads. */
export interface HttpResponse {
  status: number
  statusText: string
  body: AsyncIterable<Uint8Array> | null
}

export interface ManifestIO {
  stat?: (path: string) => Promise<FileStat>
  readdir?: (path: string) => Promise<string[]>
  readFile?: (path: string) => Promise<Uint8Array>
  /** Standard input as bytes. */
  stdin?: () => Promise<Uint8Array>
  fetch?: ((url: string, init: {signal: AbortSignal; headers: Array<[string, string]>}) => Promise<HttpResponse>) | undefined
  /** Headers sent with every URL request (`--manifest-url-header`). */
  httpHeaders?: Array<[string, string]>
  /** True when the caller holds this version of the file already: it is not read again (a source re-reading every 20 s). */
  unchanged?: (path: string, st: FileStat) => boolean
}

/** What reading manifest files needs of the host. */
export type ManifestFs = Pick<HostFs, 'stat' | 'readDir' | 'readBounded'>

/** The file operations of ManifestIO on a host: links followed, each file read within the manifest limit. */
export function hostManifestIO(fs: ManifestFs): Pick<ManifestIO, 'stat' | 'readdir' | 'readFile'> {
  return {
    stat: async (path) => {
      const st = await fs.stat(path, {follow: true})
      if (st === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), {code: 'ENOENT'})
      return {isFile: () => st.type === 'file', isDirectory: () => st.type === 'directory', size: st.size, version: st.version, changedAtMs: st.changedAtMs}
    },
    readdir: (path) => fs.readDir(path),
    // Bounded even after the size check: a file may grow between its stat and its read.
    readFile: (path) =>
      fs.readBounded(path, MAX_MANIFEST_BYTES).catch((err: unknown) => {
        if (err instanceof TooLargeError) checkSize(MAX_MANIFEST_BYTES + 1)
        throw err
      }),
  }
}

/** A reader of files that was given none (a URL source, a test of URLs) says so. */
function noFiles(): never {
  throw new Error('files cannot be read here')
}

export interface ReadResult {
  blobs: ManifestBlob[]
  issues: FieldIssue[]
}

/** Reads every location in order; throws one InvalidInputError naming every unreadable one. */
export async function readManifests(locations: readonly string[], io: ManifestIO = {}): Promise<ManifestBlob[]> {
  return (await readManifestGroups(locations, io)).flatMap((g) => g.blobs)
}

/** What one location argument (`-f ARG`) yielded: a file's, a directory's or a URL's blobs. */
export interface BlobGroup {
  arg: string
  blobs: ManifestBlob[]
}

/** Like readManifests, with the blobs grouped by the argument they came from. */
export async function readManifestGroups(locations: readonly string[], io: ManifestIO = {}): Promise<BlobGroup[]> {
  const groups: BlobGroup[] = []
  const issues: FieldIssue[] = []
  let stdinSeen = false
  for (const arg of locations) {
    let loc: ManifestLocation
    try {
      loc = parseLocation(arg)
    } catch (err) {
      issues.push(readIssue(arg, errorMessage(err)))
      continue
    }
    if (loc.kind === 'stdin') {
      if (stdinSeen) {
        issues.push(readIssue('-', 'standard input can be given only once'))
        continue
      }
      stdinSeen = true
    }
    const result = await readLocation(loc, io)
    groups.push({arg: loc.kind === 'url' ? redactUrl(loc.url) : loc.arg, blobs: result.blobs})
    issues.push(...result.issues)
  }
  if (issues.length > 0) throw new InvalidInputError(issues)
  return groups
}

/** Reads one location; problems are returned, not thrown, so a source can skip a bad file. */
export async function readLocation(loc: ManifestLocation, io: ManifestIO = {}): Promise<ReadResult> {
  const source = sourceKind(loc)
  try {
    if (loc.kind === 'stdin') {
      if (!io.stdin) throw new Error('standard input is not available here')
      const bytes = await io.stdin()
      return {blobs: [{location: '-', source, text: decodeText(bytes)}], issues: []}
    }
    if (loc.kind === 'url') {
      const text = await fetchText(loc.url, io)
      // The URL as shown everywhere (issues, the pod's source, pod.json): no userinfo, no query.
      return {blobs: [{location: redactUrl(loc.url), source, text}], issues: []}
    }
    return await readPath(loc.path, io)
  } catch (err) {
    if (loc.kind === 'url') return {blobs: [], issues: [readIssue(redactUrl(loc.url), scrub(errorMessage(err), urlSecrets(loc.url)))]}
    return {blobs: [], issues: [readIssue(loc.kind === 'stdin' ? '-' : loc.path, errorMessage(err))]}
  }
}

async function readPath(path: string, io: ManifestIO): Promise<ReadResult> {
  const st = await (io.stat ?? noFiles)(path).catch(fsError)
  if (!st.isDirectory()) return {blobs: [await readOneFile(path, st, io)], issues: []}
  const names = (await (io.readdir ?? noFiles)(path).catch(fsError))
    .filter((n) => !n.startsWith('.') && EXTENSIONS.some((ext) => n.toLowerCase().endsWith(ext)))
    .sort()
  const blobs: ManifestBlob[] = []
  const issues: FieldIssue[] = []
  let total = 0
  for (const [index, name] of names.entries()) {
    const file = join(path, name)
    if (index >= MAX_DIRECTORY_FILES) {
      issues.push(readIssue(file, `not read: the directory has more than ${MAX_DIRECTORY_FILES} manifest files`))
      continue
    }
    try {
      const fst = await (io.stat ?? noFiles)(file).catch(fsError)
      // Sub-directories (even one named x.yaml) and special files are not manifests.
      if (!fst.isFile()) continue
      if (total + fst.size > MAX_DIRECTORY_BYTES) {
        issues.push(readIssue(file, `not read: the directory's manifests pass ${MAX_DIRECTORY_BYTES / 1024 / 1024} MiB in all`))
        continue
      }
      const blob = await readOneFile(file, fst, io)
      total += blob.unchanged ? fst.size : Buffer.byteLength(blob.text)
      blobs.push({...blob, directory: path})
    } catch (err) {
      issues.push(readIssue(file, errorMessage(err)))
    }
  }
  return {blobs, issues}
}

async function readOneFile(path: string, st: FileStat, io: ManifestIO): Promise<ManifestBlob> {
  if (!st.isFile()) throw new Error('is not a regular file or directory')
  checkSize(st.size)
  if (io.unchanged?.(path, st)) return {location: path, source: 'file', text: '', unchanged: true}
  const bytes = await (io.readFile ?? noFiles)(path).catch(fsError)
  checkSize(bytes.byteLength)
  return {location: path, source: 'file', text: decodeText(bytes)}
}

async function fetchText(url: string, io: ManifestIO): Promise<string> {
  const doFetch = io.fetch ?? defaultFetch
  let res: HttpResponse
  try {
    res = await doFetch(url, {signal: AbortSignal.timeout(HTTP_TIMEOUT_MS), headers: io.httpHeaders ?? []})
  } catch (err) {
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
      throw new Error(`no response within ${HTTP_TIMEOUT_MS / 1000}s`)
    }
    throw new Error(`GET failed: ${causeMessage(err)}`)
  }
  if (res.status !== 200) throw new Error(`GET returned HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}, expected 200`)
  const chunks: Uint8Array[] = []
  let total = 0
  if (res.body) {
    for await (const chunk of res.body) {
      total += chunk.byteLength
      checkSize(total)
      chunks.push(chunk)
    }
  }
  return decodeText(Buffer.concat(chunks))
}

async function defaultFetch(url: string, init: GetInit): Promise<HttpResponse> {
  const res = await getSameOrigin(fetch, url, init)
  return {status: res.status, statusText: res.statusText, body: res.body}
}

/** Reads a whole stream (standard input, for `-f -`) within the manifest size limit. */
export async function readStream(stream: AsyncIterable<Buffer | string>): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    total += buf.byteLength
    checkSize(total)
    chunks.push(buf)
  }
  return Buffer.concat(chunks)
}

function checkSize(bytes: number): void {
  if (bytes > MAX_MANIFEST_BYTES) {
    throw new Error(`is larger than the ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB limit for a manifest`)
  }
}

function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', {fatal: true}).decode(bytes)
  } catch {
    throw new Error('is not valid UTF-8 text')
  }
}

const FS_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a parent of this path is not a directory',
  ELOOP: 'too many levels of symbolic links',
  EISDIR: 'is a directory',
}

function fsError(err: unknown): never {
  const code = err instanceof Error && 'code' in err ? String(err.code) : ''
  throw new Error(FS_ERRORS[code] ?? errorMessage(err))
}

function causeMessage(err: unknown): string {
  // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, DNS…) is in `cause`.
  if (err instanceof Error && err.cause !== undefined) return `${err.message} (${errorMessage(err.cause)})`
  return errorMessage(err)
}

function readIssue(location: string, message: string): FieldIssue {
  return {location, document: 0, field: '', message}
}
