// `kube-node kubeconfig` finds a running watch through <root-dir>/kube-node.api, and trusts it
// only while the root dir's lock is held by the PID the file names.
import {afterEach, describe, expect, it} from 'vitest'
import {chmodSync, mkdtempSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {acquireLock} from '../../../src/node/lock.js'
import {API_ADDRESS_FILE, runningApiAddress, writeApiAddress} from '../../../src/node/api-address.js'
import {kubeconfigFor} from '../../../src/services/kubeconfig.js'
import {API_CREDENTIAL_FILE, newApiCertificate, newApiToken, writeApiCredential} from '../../../src/node/api-credential.js'
import {NotFoundError} from '../../../src/util/errors.js'

let root: string

afterEach(() => rmSync(root, {recursive: true, force: true}))

describe('the address of the running watch', () => {
  it('is found while the watch holds the lock, and gone after it stops', async () => {
    root = mkdtempSync(join(tmpdir(), 'kn-api-'))
    const lock = await acquireLock(root)
    const credential = {token: newApiToken(), certificate: newApiCertificate('127.0.0.1', new Date()).certPem}
    const forgetCredential = await writeApiCredential(root, credential)
    const forget = await writeApiAddress(root, 'https://127.0.0.1:10255')
    expect(await runningApiAddress(root)).toEqual({server: 'https://127.0.0.1:10255', pid: process.pid})
    const config = await kubeconfigFor(root, 'n1')
    expect(config.clusters[0]!.cluster.server).toBe('https://127.0.0.1:10255')
    expect(Buffer.from(config.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString()).toBe(credential.certificate)
    expect(config.users[0]!.user.token).toBe(credential.token)
    await forget()
    await forgetCredential()
    await lock.release()
    expect(await runningApiAddress(root)).toBeUndefined()
    await expect(kubeconfigFor(root, 'n1')).rejects.toThrow(NotFoundError)
  })

  it('is not trusted when the watch died without removing it (no lock held)', async () => {
    root = mkdtempSync(join(tmpdir(), 'kn-api-'))
    writeFileSync(join(root, API_ADDRESS_FILE), JSON.stringify({server: 'http://127.0.0.1:10255', pid: process.pid}))
    writeFileSync(join(root, 'kube-node.lock'), `${process.pid}\n`)
    expect(await runningApiAddress(root)).toBeUndefined()
  })

  it('is not trusted when another process holds the lock', async () => {
    root = mkdtempSync(join(tmpdir(), 'kn-api-'))
    const lock = await acquireLock(root)
    try {
      writeFileSync(join(root, API_ADDRESS_FILE), JSON.stringify({server: 'http://127.0.0.1:1', pid: process.pid + 1}))
      expect(await runningApiAddress(root)).toBeUndefined()
      writeFileSync(join(root, API_ADDRESS_FILE), JSON.stringify({server: 'http://evil.example/x', pid: process.pid}))
      expect(await runningApiAddress(root)).toBeUndefined()
    } finally {
      await lock.release()
    }
  })

  it('is undefined for a root dir that does not exist', async () => {
    root = join(tmpdir(), 'kn-api-missing-' + process.pid)
    expect(await runningApiAddress(root)).toBeUndefined()
  })

  it('the credential is root-only (0600), and kubeconfig refuses one that others can read', async () => {
    root = mkdtempSync(join(tmpdir(), 'kn-api-'))
    const lock = await acquireLock(root)
    try {
      await writeApiCredential(root, {token: newApiToken(), certificate: newApiCertificate('127.0.0.1', new Date()).certPem})
      await writeApiAddress(root, 'https://127.0.0.1:10255')
      expect(statSync(join(root, API_CREDENTIAL_FILE)).mode & 0o777).toBe(0o600)
      chmodSync(join(root, API_CREDENTIAL_FILE), 0o644)
      await expect(kubeconfigFor(root, 'n1')).rejects.toThrow(/no readable credential/)
    } finally {
      await lock.release()
    }
  })
})
