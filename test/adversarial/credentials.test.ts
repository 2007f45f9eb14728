// Credentials stay where they belong: configured URL headers never reach another origin, URL
// credentials never appear in what kube-node prints or stores, and header files are parsed
// without ever echoing a value.
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {readLocation} from '../../src/manifest/read.js'
import {parseHeaderFile, readHeaderFile} from '../../src/sources/header-file.js'
import {InvalidInputError} from '../../src/util/errors.js'
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {kn, makeDirs} from '../e2e/support.js'

const SECRET = 'Bearer s3cr3t-token-value'
const POD = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: busybox}]}\n'

async function listen(handler: (path: string, headers: IncomingHttpHeaders, res: import('node:http').ServerResponse) => void): Promise<{server: Server; base: string}> {
  const server = createServer((req, res) => handler((req.url ?? '').split('?')[0]!, req.headers, res))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`}
}

describe('URL headers never leave their origin', () => {
  let a: {server: Server; base: string}
  let b: {server: Server; base: string}
  const seenByB: IncomingHttpHeaders[] = []
  beforeAll(async () => {
    b = await listen((_path, headers, res) => {
      seenByB.push(headers)
      res.end(POD)
    })
    a = await listen((path, _headers, res) => {
      if (path === '/same') return void res.writeHead(302, {Location: '/pods.yaml'}).end()
      if (path === '/pods.yaml') return void res.end(POD)
      if (path === '/loop') return void res.writeHead(302, {Location: '/loop'}).end()
      res.writeHead(302, {Location: `${b.base}/pods.yaml`}).end()
    })
  })
  afterAll(() => {
    a.server.close()
    b.server.close()
  })
  const io = {httpHeaders: [['Authorization', SECRET], ['X-Token', SECRET]] as Array<[string, string]>}

  it('a redirect to another origin is refused, and that origin is never contacted', async () => {
    const r = await readLocation({kind: 'url', url: `${a.base}/elsewhere`, arg: ''}, io)
    expect(r.blobs).toEqual([])
    expect(r.issues[0]!.message).toMatch(/redirected to another origin .*refused/)
    expect(seenByB).toEqual([])
  })

  it('a redirect within the origin keeps working', async () => {
    const r = await readLocation({kind: 'url', url: `${a.base}/same`, arg: ''}, io)
    expect(r.issues).toEqual([])
    expect(r.blobs[0]!.text).toBe(POD)
  })

  it('a redirect loop ends with a clear error', async () => {
    const r = await readLocation({kind: 'url', url: `${a.base}/loop`, arg: ''}, io)
    expect(r.issues[0]!.message).toMatch(/more than 5 redirects/)
  })

  it('URL credentials never show in issues or in the pod source', async () => {
    const withCreds = a.base.replace('http://', 'http://user:pa55word@') + '/elsewhere?token=abc'
    const r = await readLocation({kind: 'url', url: withCreds, arg: ''}, io)
    expect(JSON.stringify(r)).not.toMatch(/pa55word|token=abc/)
    const ok = await readLocation({kind: 'url', url: a.base.replace('http://', 'http://user:pa55word@') + '/pods.yaml?token=abc', arg: ''}, io)
    expect(ok.blobs[0]!.location).toBe(`${a.base}/pods.yaml`)
  })
})

describe('--manifest-url-header-file', () => {
  it('reads Key: Value lines, skipping blanks and comments', () => {
    expect(parseHeaderFile('# token\nAuthorization: Bearer x\n\nX-A: 1\nx-a: 2\n', 'h')).toEqual({Authorization: ['Bearer x'], 'X-A': ['1', '2']})
  })

  it.each([
    ['no colon', `${SECRET}\n`],
    ['a bad header name', `Bad Name: ${SECRET}\n`],
    ['a control character', `X-A: ${SECRET}\u0007\n`],
  ])('a line with %s is refused naming the line, never the value', (_what, text) => {
    let err: unknown
    try {
      parseHeaderFile(`# first\n${text}`, '/etc/kn/headers')
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(InvalidInputError)
    expect((err as Error).message).toContain('/etc/kn/headers, line 2')
    expect((err as Error).message).not.toContain('s3cr3t')
  })

  it('a huge or endless file is refused within 64 KiB', async () => {
    await expect(readHeaderFile('/dev/zero', nodeHostFs)).rejects.toThrow(/larger than 64 KiB/)
  })

  it('watch refuses a missing header file with exit 2', async () => {
    const dirs = makeDirs()
    const r = await kn(dirs, ['watch', '--manifest-url', 'http://127.0.0.1:9/x', '--manifest-url-header-file', join(dirs.work, 'missing'), '--port', '0', '--healthz-port', '0'])
    dirs.cleanup()
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/manifest-url-header-file .*cannot be read/)
  })
})

describe('only http and https manifest URLs', () => {
  it.each(['file:///etc/passwd', 'data:,hello', 'ftp://host/x', 'garbage', 'http://'])('watch --manifest-url %s exits 2 at start', async (url) => {
    const dirs = makeDirs()
    const r = await kn(dirs, ['watch', '--manifest-url', url, '--port', '0', '--healthz-port', '0'])
    dirs.cleanup()
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toMatch(/--manifest-url/)
  })

  it('header values given on the command line draw a warning about the process list', async () => {
    const dirs = makeDirs()
    const work = mkdtempSync(join(tmpdir(), 'kn-cred-'))
    writeFileSync(join(work, 'h'), 'X-A: 1\n')
    const r = await kn(dirs, ['watch', '--manifest-url', 'file:///x', '--manifest-url-header', `Authorization:${SECRET}`, '--port', '0', '--healthz-port', '0'])
    dirs.cleanup()
    expect(r.stderr).not.toContain('s3cr3t')
  })
})

describe('imagePullSecrets: registry credentials are never echoed', () => {
  const PULL_PASSWORD = 'pull-pa55-never-shown'
  const manifest = (dockerconfigjson: string): string =>
    `${POD.replace('spec: {', 'spec: {imagePullSecrets: [{name: regcred}], ')}---\napiVersion: v1\nkind: Secret\nmetadata: {name: regcred}\ntype: kubernetes.io/dockerconfigjson\nstringData:\n  .dockerconfigjson: ${JSON.stringify(dockerconfigjson)}\n`

  it.each([
    ['not JSON', `{"auths": {"r.io": {"password": "${PULL_PASSWORD}"`],
    ['JSON but not an object', `["${PULL_PASSWORD}"]`],
  ])('validate refuses a dockerconfigjson that is %s, naming the field and never quoting it', async (_what, content) => {
    const dirs = makeDirs()
    const file = join(dirs.work, 'pod.yaml')
    writeFileSync(file, manifest(content))
    const r = await kn(dirs, ['validate', '-f', file, '-v', '10'])
    dirs.cleanup()
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/stringData\[?.*dockerconfigjson.*must hold a JSON object/)
    expect(r.stdout + r.stderr).not.toContain(PULL_PASSWORD)
  })

  it('validate of a valid one never prints the secret', async () => {
    const dirs = makeDirs()
    const file = join(dirs.work, 'pod.yaml')
    writeFileSync(file, manifest(JSON.stringify({auths: {'r.io': {username: 'u', password: PULL_PASSWORD}}})))
    const r = await kn(dirs, ['validate', '-f', file, '-v', '10'])
    dirs.cleanup()
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout + r.stderr).not.toContain(PULL_PASSWORD)
  })
})
