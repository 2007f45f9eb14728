// Where a running `watch` serves its API, for `kube-node kubeconfig`: <root-dir>/kube-node.api
// holds {"server": "https://127.0.0.1:40123", "pid": 1234} (the API's TLS port), written once it is bound and
// removed on a clean stop. The file alone proves nothing (kill -9 leaves it): a reader trusts it
// only while the root dir's lock is held by the pid it names.
import {join} from 'node:path'
import {LOCK_FILE} from './lock.js'
import {holdsExclusiveLock} from '../host/flock.js'
import {readRecordFile, removeRecordFile, replaceRecordFile} from '../host/record-file.js'

export const API_ADDRESS_FILE = 'kube-node.api'

export interface ApiAddress {
  server: string
  pid: number
}

/** The URL a local client uses for a server bound to `address` (a wildcard means this machine). */
export function localServerUrl(address: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const a = address.replace(/^\[|\]$/g, '')
  const host = a === '0.0.0.0' || a === '' ? '127.0.0.1' : a === '::' ? '::1' : a
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`
}

export async function writeApiAddress(rootDir: string, server: string): Promise<() => Promise<void>> {
  const path = join(rootDir, API_ADDRESS_FILE)
  // Never written through a link planted at the temporary name or at `path` (replaceRecordFile).
  await replaceRecordFile(path, JSON.stringify({server, pid: process.pid} satisfies ApiAddress) + '\n', 0o644)
  return async () => {
    const now = await readApiAddressFile(path)
    if (now?.pid === process.pid) await removeRecordFile(path)
  }
}

/** The file is a line of JSON; anything longer is not one watch wrote. */
const MAX_ADDRESS_FILE_BYTES = 4096

/**
 * A server as localServerUrl writes it: http(s), an IP literal or localhost, a port, nothing else.
 * `kubeconfig` prints it for kubectl to trust, so a planted host name, userinfo or path is refused.
 */
const SERVER_URL = /^https?:\/\/(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):\d{1,5}$/

async function readApiAddressFile(path: string): Promise<ApiAddress | undefined> {
  try {
    // Not through a link, and not more than a line of it: a huge or planted file is no address.
    const record = await readRecordFile(path, MAX_ADDRESS_FILE_BYTES)
    if (!record) return undefined
    const v = JSON.parse(record.text) as Partial<ApiAddress>
    if (typeof v !== 'object' || v === null) return undefined
    if (typeof v.server !== 'string' || !SERVER_URL.test(v.server) || typeof v.pid !== 'number') return undefined
    return {server: v.server, pid: v.pid}
  } catch {
    return undefined
  }
}

/** The API address of the watch running with this root dir, or undefined when none runs or it serves none. */
export async function runningApiAddress(rootDir: string): Promise<ApiAddress | undefined> {
  const addr = await readApiAddressFile(join(rootDir, API_ADDRESS_FILE))
  if (!addr || !(await holdsExclusiveLock(addr.pid, join(rootDir, LOCK_FILE)))) return undefined
  return addr
}
