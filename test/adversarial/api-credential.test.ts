// Another user of the host (or a hostNetwork pod: the same loopback) against a real `watch`
// started through bin/run.js: container logs are 0640 root on disk, so the API hands them, and
// the events, only to a request carrying the credential that `kube-node kubeconfig` prints (as
// root). What the kubelet's read-only port serves (/healthz, /pods, the metrics) stays open.
import {spawnSync} from 'node:child_process'
import {request} from 'node:https'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, makeDirs} from '../e2e/support.js'
import {argsAs, startWatchAs, type Watch} from './support/daemon.js'
import {isRoot, nodeAsNobody} from './support/nobody.js'

const NODE = 'adv-users'
const POD = `talker-${NODE}`
const MARKER = `root-only-log-line-${process.pid}`
const dirs = makeDirs()
let watch: Watch | undefined

function kn(args: string[]): {code: number; stdout: string; stderr: string} {
  const r = spawnSync(process.execPath, argsAs(NODE, dirs, args), {encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}, timeout: 120_000})
  return {code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr}
}

/** What nobody gets for each URL: the status and whether the log line came with it. */
const PROBE = `
  const urls = JSON.parse(process.env.URLS)
  const out = {}
  ;(async () => {
    for (const [what, url, headers] of urls) {
      try {
        const res = await fetch(url, {headers: headers ?? {}})
        const text = await res.text()
        out[what] = {status: res.status, leaked: text.includes(process.env.MARKER)}
      } catch (e) { out[what] = {error: String(e.cause?.code ?? e.message)} }
    }
    const fs = require('node:fs')
    for (const f of ['kube-node.api', 'kube-node.credential', 'kube-node.lock']) {
      try { fs.readFileSync(process.env.ROOT + '/' + f); out[f] = 'read' } catch (e) { out[f] = e.code }
    }
    process.stdout.write(JSON.stringify(out) + '\\n')
  })()
`

/** A GET over TLS trusting only `ca`, as kubectl does with the kubeconfig. */
function httpsGet(url: string, ca: string, token: string): Promise<{status: number; body: string}> {
  return new Promise((resolve, reject) => {
    const req = request(url, {ca, headers: {authorization: `Bearer ${token}`}}, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve({status: res.statusCode ?? 0, body}))
    })
    req.on('error', reject)
    req.end()
  })
}

interface Kubeconfig {
  server: string
  ca: string
  token: string
}

function parseKubeconfig(yaml: string): Kubeconfig {
  const server = /server: (\S+)/.exec(yaml)?.[1] ?? ''
  const ca = Buffer.from(/certificate-authority-data: (\S+)/.exec(yaml)?.[1] ?? '', 'base64').toString()
  const token = /token: (\S+)/.exec(yaml)?.[1] ?? ''
  return {server, ca, token}
}

describe.skipIf(!isRoot)('the API against another local user (as nobody, real watch)', () => {
  let config: Kubeconfig

  beforeAll(async () => {
    const manifests = join(dirs.work, 'manifests')
    spawnSync('mkdir', ['-p', manifests])
    writeFileSync(
      join(manifests, 'talker.yaml'),
      `apiVersion: v1\nkind: Pod\nmetadata: {name: talker}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - name: main\n    image: ${BUSYBOX}\n    command: ["sh", "-c", "while true; do echo ${MARKER}; sleep 1; done"]\n`,
    )
    watch = await startWatchAs(NODE, dirs, manifests)
    // The log is there: the CLI, reading the files as root, shows it.
    const deadline = Date.now() + 90_000
    while (!kn(['logs', 'talker']).stdout.includes(MARKER)) {
      if (Date.now() > deadline || watch.exited()) throw new Error(`the pod never logged: ${watch.stderr()}`)
      await new Promise((r) => setTimeout(r, 500))
    }
    const k = kn(['kubeconfig'])
    expect(k.code, k.stderr).toBe(0)
    config = parseKubeconfig(k.stdout)
  }, 180_000)

  afterAll(async () => {
    await watch?.stop()
    kn(['down', '--all'])
    dirs.cleanup()
  })

  it('nobody gets 401 and no log line for logs and events, on the plain port and over TLS; /pods and /healthz stay open', () => {
    const plain = `http://127.0.0.1:${watch!.port}`
    const urls = [
      ['log', `${plain}/api/v1/namespaces/default/pods/${POD}/log`],
      ['log with a made-up token', `${plain}/api/v1/namespaces/default/pods/${POD}/log`, {authorization: 'Bearer not-the-token'}],
      ['log, follow', `${plain}/api/v1/namespaces/default/pods/${POD}/log?follow=true`],
      ['events', `${plain}/api/v1/events`],
      ['events of the namespace', `${plain}/api/v1/namespaces/default/events`],
      ['pods (API)', `${plain}/api/v1/pods`],
      ['/pods', `${plain}/pods`],
      ['/healthz', `${plain}/healthz`],
    ]
    const r = nodeAsNobody(PROBE, {URLS: JSON.stringify(urls), MARKER, ROOT: dirs.rootDir})
    expect(r.code, r.stderr).toBe(0)
    const seen = JSON.parse(r.stdout) as Record<string, {status: number; leaked: boolean} | string>
    for (const what of ['log', 'log with a made-up token', 'log, follow', 'events', 'events of the namespace']) {
      expect(seen[what], what).toEqual({status: 401, leaked: false})
    }
    expect(seen['pods (API)']).toMatchObject({status: 200})
    expect(seen['/pods']).toMatchObject({status: 200})
    expect(seen['/healthz']).toMatchObject({status: 200})
    // Nor can nobody read where the credential is: the root dir is 0750 root.
    expect([seen['kube-node.api'], seen['kube-node.credential'], seen['kube-node.lock']]).toEqual(['EACCES', 'EACCES', 'EACCES'])
  })

  it('over TLS, nobody without the token gets 401; with the kubeconfig credential the log is served', async () => {
    expect(config.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    // nobody skips certificate checks (it has no CA) and still gets nothing without the token.
    const probe = nodeAsNobody(PROBE, {URLS: JSON.stringify([['log over TLS', `${config.server}/api/v1/namespaces/default/pods/${POD}/log`]]), MARKER, ROOT: dirs.rootDir, NODE_TLS_REJECT_UNAUTHORIZED: '0'})
    expect(probe.code, probe.stderr).toBe(0)
    expect(JSON.parse(probe.stdout)['log over TLS']).toEqual({status: 401, leaked: false})

    const log = await httpsGet(`${config.server}/api/v1/namespaces/default/pods/${POD}/log`, config.ca, config.token)
    expect(log.status).toBe(200)
    expect(log.body).toContain(MARKER)
    const events = await httpsGet(`${config.server}/api/v1/namespaces/default/events`, config.ca, config.token)
    expect(events.status).toBe(200)
    expect(events.body).toContain(POD)
  })

  it('the credential is new at every start: an old kubeconfig opens nothing after a restart', async () => {
    const old = config
    await watch!.stop()
    watch = await startWatchAs(NODE, dirs, join(dirs.work, 'manifests'))
    const deadline = Date.now() + 60_000
    let k = kn(['kubeconfig'])
    while (k.code !== 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300))
      k = kn(['kubeconfig'])
    }
    config = parseKubeconfig(k.stdout)
    expect(config.token).not.toBe(old.token)
    const stale = await httpsGet(`${config.server}/api/v1/namespaces/default/pods/${POD}/log`, config.ca, old.token)
    expect(stale.status).toBe(401)
    expect(stale.body).not.toContain(MARKER)
  })
})
