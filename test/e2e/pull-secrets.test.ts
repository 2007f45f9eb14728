// imagePullSecrets on a real containerd: a second loopback registry over the same storage, this
// one requiring a login (htpasswd), serves the images. A pod naming a dockerconfigjson Secret of
// its manifest is pulled with that login; without it the pull is refused by the registry. The
// password appears in nothing kube-node prints, even at -v 10.
import {spawn, type ChildProcess} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ctr, eventually, kn, makeDirs, writeManifest} from './support.js'

const ADDR = '127.0.0.1:5001'
const IMAGE = 'localhost:5001/busybox:latest'
const USER = 'robot'
const PASSWORD = 'e2e-pull-s3cret'
// bcrypt of PASSWORD (cost 4), made once with Python's crypt; docker-registry reads only bcrypt.
const HTPASSWD = `${USER}:$2b$04$NNyhsblSfSGcounEXTM2RetVWcAMOYMBhTH1NbObNQKJKQ1hQkshO\n`
const STORAGE = '/var/lib/kube-node-e2e/registry/storage'

const dirs = makeDirs()
let registry: ChildProcess | undefined

function removeImage(): void {
  try {
    ctr(['images', 'rm', IMAGE])
  } catch {
    // not there
  }
}

const podYaml = (name: string, withSecret: boolean): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  ${withSecret ? 'imagePullSecrets: [{name: regcred}]' : ''}
  containers:
  - {name: main, image: "${IMAGE}", command: [sh, -c, "echo pulled"]}
---
apiVersion: v1
kind: Secret
metadata: {name: regcred}
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '${JSON.stringify({auths: {'localhost:5001': {auth: Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}}})}'
`

describe('imagePullSecrets (real containerd, a registry that requires a login)', () => {
  beforeAll(async () => {
    writeFileSync(join(dirs.work, 'htpasswd'), HTPASSWD)
    writeFileSync(
      join(dirs.work, 'registry.yml'),
      `version: 0.1\nlog: {level: warn}\nstorage:\n  filesystem: {rootdirectory: ${STORAGE}}\n  maintenance: {readonly: {enabled: true}, uploadpurging: {enabled: false}}\nhttp: {addr: "${ADDR}"}\nauth:\n  htpasswd: {realm: kube-node-e2e, path: ${join(dirs.work, 'htpasswd')}}\n`,
    )
    registry = spawn('docker-registry', ['serve', join(dirs.work, 'registry.yml')], {stdio: 'ignore'})
    await eventually(async () => {
      const res = await fetch(`http://${ADDR}/v2/`).catch(() => undefined)
      return res?.status === 401 ? true : undefined
    }, 15_000, 'the login registry to answer')
    removeImage()
    await kn(dirs, ['down', '--all'])
  })
  afterAll(async () => {
    await kn(dirs, ['down', '--all'])
    removeImage()
    registry?.kill()
    dirs.cleanup()
  })

  it('without the secret the registry refuses the pull', async () => {
    const r = await kn(dirs, ['run', '-f', writeManifest(dirs.work, 'nosecret.yaml', podYaml('nosecret', false)), '--timeout', '10s'])
    expect(r.code).not.toBe(0)
    expect(r.stderr + r.stdout).toMatch(/401|[Uu]nauthorized/)
  })

  it('with the secret the image is pulled with its login, and the password is printed nowhere', async () => {
    removeImage()
    const manifest = writeManifest(dirs.work, 'withsecret.yaml', podYaml('withsecret', true))
    const r = await kn(dirs, ['run', '-f', manifest, '--wait', 'none', '--timeout', '60s', '-v', '10'])
    expect(r.code, r.stderr).toBe(0)
    expect(ctr(['images', 'ls', '-q'])).toContain(IMAGE)
    const outputs = [r.stdout, r.stderr]
    for (const args of [['describe', 'pod', 'withsecret'], ['get', 'pods', '-o', 'json'], ['get', 'pods', '-o', 'yaml'], ['events', 'withsecret'], ['validate', '-f', manifest]]) {
      const o = await kn(dirs, [...args, '-v', '10'])
      expect(o.code, `${args.join(' ')}: ${o.stderr}`).toBe(0)
      outputs.push(o.stdout, o.stderr)
    }
    const b64 = Buffer.from(`${USER}:${PASSWORD}`).toString('base64')
    for (const text of outputs) {
      expect(text).not.toContain(PASSWORD)
      expect(text).not.toContain(b64)
    }
  })
})
