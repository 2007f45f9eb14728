// The credential of a running watch's API: a random bearer token and the certificate of the API's
// TLS listener, both new at every start, in <root-dir>/kube-node.credential (0600, root only,
// inside the 0750 root dir). `kube-node kubeconfig` prints them for kubectl; logs and events on
// the API need the token (server/kube-api/credential.ts). New at every start, so a kubeconfig
// outlives no restart and nothing of it is worth stealing from an old copy.
import {randomBytes, X509Certificate} from 'node:crypto'
import {isIP} from 'node:net'
import {join} from 'node:path'
import {selfSignedCertificate, type SelfSignedCertificate} from '../server/self-signed-cert.js'
import {readRecordFile, removeRecordFile, replaceRecordFile} from '../host/record-file.js'

export const API_CREDENTIAL_FILE = 'kube-node.credential'

export interface ApiCredential {
  /** What kubectl sends as `Authorization: Bearer …`. */
  token: string
  /** The PEM certificate of the API's TLS listener: the authority the kubeconfig trusts. */
  certificate: string
}

/** 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/
/** A token and one certificate in JSON are far smaller; anything bigger is not ours. */
const MAX_CREDENTIAL_FILE_BYTES = 8 * 1024

export function newApiToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Writes the credential (0600) and returns what removes it again on a clean stop. */
export async function writeApiCredential(rootDir: string, credential: ApiCredential): Promise<() => Promise<void>> {
  const path = join(rootDir, API_CREDENTIAL_FILE)
  // As for kube-node.api: never written through a link planted at either name.
  await replaceRecordFile(path, JSON.stringify(credential) + '\n', 0o600)
  return async () => {
    if ((await readApiCredential(rootDir))?.token === credential.token) await removeRecordFile(path)
  }
}

/**
 * The credential of the watch running with this root dir, or undefined. Only a regular file (not
 * through a link) of this user's that nobody else can read, holding a token and a certificate,
 * is believed.
 */
export async function readApiCredential(rootDir: string): Promise<ApiCredential | undefined> {
  try {
    const record = await readRecordFile(join(rootDir, API_CREDENTIAL_FILE), MAX_CREDENTIAL_FILE_BYTES)
    const uid = process.getuid?.()
    if (!record || (record.mode & 0o077) !== 0 || (uid !== undefined && record.uid !== uid)) return undefined
    const v = JSON.parse(record.text) as Partial<ApiCredential> | null
    if (typeof v?.token !== 'string' || !TOKEN.test(v.token) || typeof v.certificate !== 'string') return undefined
    new X509Certificate(v.certificate) // throws unless it is one certificate
    return {token: v.token, certificate: v.certificate}
  } catch {
    return undefined
  }
}

/** The TLS certificate of the API: the loopback names, and `address` when it is one IP. */
export function newApiCertificate(address: string, now: Date): SelfSignedCertificate {
  const a = address.replace(/^\[|\]$/g, '')
  const ips = ['127.0.0.1', '::1', ...(isIP(a) !== 0 && a !== '0.0.0.0' && a !== '::' && !['127.0.0.1', '::1'].includes(a) ? [a] : [])]
  // A watch may run for years; the certificate changes at every start anyway.
  return selfSignedCertificate({ips, dnsNames: ['localhost'], now, days: 3650})
}
