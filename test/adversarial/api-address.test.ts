// <root-dir>/kube-node.api, the file `kube-node kubeconfig` reads to find the running watch's
// API: a link planted at it (or at the name it is written under) is never written through, and a
// file that is huge, garbage, a link, or names a server kubectl should not be sent to is no
// address: kubeconfig refuses rather than print it.
import {lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {acquireLock, type Lock} from '../../src/node/lock.js'
import {API_ADDRESS_FILE, runningApiAddress, writeApiAddress} from '../../src/node/api-address.js'
import {kubeconfigFor} from '../../src/services/kubeconfig.js'
import {API_CREDENTIAL_FILE, newApiCertificate, newApiToken, readApiCredential, writeApiCredential} from '../../src/node/api-credential.js'
import {NotFoundError} from '../../src/util/errors.js'

let base: string
let root: string
let lock: Lock
beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'kn-adv-api-'))
  root = join(base, 'root')
  mkdirSync(root)
  lock = await acquireLock(root)
})
afterEach(async () => {
  await lock.release()
  rmSync(base, {recursive: true, force: true})
})

const addressFile = (): string => join(root, API_ADDRESS_FILE)

describe('writing the credential (kube-node.credential)', () => {
  const credential = (): {token: string; certificate: string} => ({token: newApiToken(), certificate: newApiCertificate('127.0.0.1', new Date()).certPem})
  const credentialFile = (): string => join(root, API_CREDENTIAL_FILE)

  it('is 0600, and a link planted at it or at its temporary name is replaced, its target untouched', async () => {
    const victim = join(base, 'victim')
    writeFileSync(victim, 'precious\n')
    symlinkSync(victim, credentialFile())
    symlinkSync(victim, `${credentialFile()}.${process.pid}.tmp`)
    const c = credential()
    const forget = await writeApiCredential(root, c)
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
    expect(lstatSync(credentialFile()).isSymbolicLink()).toBe(false)
    expect(lstatSync(credentialFile()).mode & 0o777).toBe(0o600)
    expect(await readApiCredential(root)).toEqual(c)
    await forget()
    expect(() => lstatSync(credentialFile())).toThrow()
  })

  it.each([
    ['a link to a well-formed credential', () => {
      writeFileSync(join(base, 'elsewhere'), JSON.stringify(credential()), {mode: 0o600})
      symlinkSync(join(base, 'elsewhere'), credentialFile())
    }],
    ['a file others can read', () => writeFileSync(credentialFile(), JSON.stringify(credential()), {mode: 0o644})],
    ['a token of the wrong shape', () => writeFileSync(credentialFile(), JSON.stringify({...credential(), token: 'short'}), {mode: 0o600})],
    ['no certificate', () => writeFileSync(credentialFile(), JSON.stringify({token: newApiToken(), certificate: 'not a certificate'}), {mode: 0o600})],
    ['a 10 MiB file', () => writeFileSync(credentialFile(), JSON.stringify({...credential(), pad: 'x'.repeat(10 * 1024 * 1024)}), {mode: 0o600})],
  ])('%s is no credential, and kubeconfig prints none', async (_name, plant) => {
    plant()
    writeFileSync(addressFile(), JSON.stringify({server: 'https://127.0.0.1:40123', pid: process.pid}))
    expect(await readApiCredential(root)).toBeUndefined()
    await expect(kubeconfigFor(root, 'n1')).rejects.toThrow(/no readable credential/)
  })
})

describe('writing the address', () => {
  it('a link planted at kube-node.api is replaced, its target untouched', async () => {
    const victim = join(base, 'victim')
    writeFileSync(victim, 'precious\n')
    symlinkSync(victim, addressFile())
    const forget = await writeApiAddress(root, 'http://127.0.0.1:10255')
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
    expect(lstatSync(addressFile()).isSymbolicLink()).toBe(false)
    expect(await runningApiAddress(root)).toEqual({server: 'http://127.0.0.1:10255', pid: process.pid})
    await forget()
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
  })

  it('a link planted at the temporary name it is written under is not written through', async () => {
    const victim = join(base, 'victim')
    writeFileSync(victim, 'precious\n')
    const tmp = `${addressFile()}.${process.pid}.tmp`
    symlinkSync(victim, tmp)
    await writeApiAddress(root, 'http://127.0.0.1:10255')
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
    expect(await runningApiAddress(root)).toEqual({server: 'http://127.0.0.1:10255', pid: process.pid})
  })

  it('a dangling link at the temporary name does not create its target', async () => {
    const target = join(base, 'created-by-root')
    symlinkSync(target, `${addressFile()}.${process.pid}.tmp`)
    await writeApiAddress(root, 'http://127.0.0.1:10255')
    expect(() => lstatSync(target)).toThrow()
  })

  it('on a clean stop only its own file is removed: a link planted since stays, its target intact', async () => {
    const forget = await writeApiAddress(root, 'http://127.0.0.1:10255')
    const victim = join(base, 'victim')
    writeFileSync(victim, JSON.stringify({server: 'http://127.0.0.1:1', pid: process.pid}))
    rmSync(addressFile())
    symlinkSync(victim, addressFile())
    await forget()
    expect(readFileSync(victim, 'utf8')).toContain('127.0.0.1:1')
    expect(readlinkSync(addressFile())).toBe(victim)
  })
})

describe('reading the address: kubeconfig refuses what watch would not have written', () => {
  const pid = process.pid
  it.each([
    ['garbage', 'not json at all'],
    ['JSON null', 'null'],
    ['a list', '[1,2]'],
    ['no server', JSON.stringify({pid})],
    ['a pid that is a string', JSON.stringify({server: 'http://127.0.0.1:10255', pid: String(pid)})],
    ['another scheme', JSON.stringify({server: 'ftp://127.0.0.1:10255', pid})],
    ['a host name', JSON.stringify({server: 'http://evil.example:80', pid})],
    ['userinfo', JSON.stringify({server: 'http://user:pw@127.0.0.1:10255', pid})],
    ['a path', JSON.stringify({server: 'http://127.0.0.1:10255/evil', pid})],
    ['no port', JSON.stringify({server: 'http://127.0.0.1', pid})],
    ['a query', JSON.stringify({server: 'http://127.0.0.1:1?x=1', pid})],
    ['a newline (YAML injection)', JSON.stringify({server: 'http://127.0.0.1:1\ncurrent-context: evil', pid})],
    ['a file scheme', JSON.stringify({server: 'file:///etc/shadow', pid})],
    ['a 10 MiB file', JSON.stringify({server: 'http://127.0.0.1:10255', pid, pad: 'x'.repeat(10 * 1024 * 1024)})],
  ])('%s → no address, and kubeconfig says none runs', async (_name, content) => {
    writeFileSync(addressFile(), content)
    expect(await runningApiAddress(root)).toBeUndefined()
    await expect(kubeconfigFor(root, 'n1')).rejects.toThrow(NotFoundError)
  })

  it('a link at kube-node.api is not followed, even to a well-formed address', async () => {
    const elsewhere = join(base, 'elsewhere.json')
    writeFileSync(elsewhere, JSON.stringify({server: 'http://127.0.0.1:10255', pid: process.pid}))
    symlinkSync(elsewhere, addressFile())
    expect(await runningApiAddress(root)).toBeUndefined()
  })

  it('a link to /dev/zero or a FIFO-like endless file does not hang or fill memory', async () => {
    symlinkSync('/dev/zero', addressFile())
    expect(await runningApiAddress(root)).toBeUndefined()
    rmSync(addressFile())
    // A directory at the path is no address either.
    mkdirSync(addressFile())
    expect(await runningApiAddress(root)).toBeUndefined()
  })

  it.each(['https://127.0.0.1:40123', 'https://[::1]:40123', 'https://10.1.2.3:40123', 'http://127.0.0.1:10255', 'http://localhost:8080'])('the addresses watch writes are still read: %s', async (server) => {
    await writeApiCredential(root, {token: newApiToken(), certificate: newApiCertificate('127.0.0.1', new Date()).certPem})
    writeFileSync(addressFile(), JSON.stringify({server, pid: process.pid}) + '\n')
    expect((await kubeconfigFor(root, 'n1')).clusters[0]!.cluster.server).toBe(server)
  })
})
