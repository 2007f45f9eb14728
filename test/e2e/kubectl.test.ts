// The real kubectl against `kube-node watch`'s read-only API, on a real containerd: the pods,
// their restarts, logs and events as a cluster user sees them, through the kubeconfig that
// `kube-node kubeconfig` prints; and every write refused.
import {describe, expect, it} from 'vitest'
import {spawn} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {KUBECTL, freePort, kubectlWith} from './kubectl-support.js'
import {NODE, eventually, kn, makeDirs, manifestDir, podYaml, startWatch, type Daemon} from './support.js'

const dirs = makeDirs()
let daemon: Daemon | undefined
const manifests = manifestDir(dirs, async () => {
  if (daemon) await daemon.stop('SIGTERM')
  daemon = undefined
})
const kubeconfig = join(dirs.work, 'kubeconfig')
const env = {...process.env, KUBECONFIG: kubeconfig, HOME: dirs.work}

const kubectl = kubectlWith(kubeconfig, dirs.work)

/** kubectl running in the background, its output so far. */
function kubectlStream(...args: string[]): {out: () => string; stop: () => Promise<void>} {
  const child = spawn(KUBECTL, args, {env})
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  return {out: () => out, stop: async () => void (child.kill('SIGTERM'), await exited)}
}

const WEB = `web-${NODE}`
const CRASHER = `crasher-${NODE}`

describe('kubectl against kube-node watch (real containerd)', () => {
  it('kubeconfig exits 1 when no watch runs', async () => {
    const r = await kn(dirs, ['kubeconfig'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/no kube-node watch/)
  })

  it('get, -o wide, -w (a restart), -o yaml, describe with Events, logs, logs -f, --previous, events, and a refused delete', async () => {
    writeFileSync(join(manifests, 'web.yaml'), podYaml('web', {command: 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 1; done'}))
    writeFileSync(join(manifests, 'crasher.yaml'), podYaml('crasher', {command: 'echo attempt $(cat /proc/sys/kernel/random/uuid); sleep 3; exit 1'}))
    const port = await freePort()
    daemon = startWatch(dirs, [manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0'])

    // The kubeconfig points at the running watch.
    const config = await eventually(async () => {
      const r = await kn(dirs, ['kubeconfig'])
      return r.code === 0 ? r.stdout : undefined
    }, 30_000, 'kubeconfig')
    // Over TLS on a port of its own (kubectl sends a token to https servers only), trusting the
    // certificate of this watch, with the token that logs and events need.
    expect(config).toMatch(/server: https:\/\/127\.0\.0\.1:\d+\n/)
    expect(config).toMatch(/certificate-authority-data: \S+\n/)
    expect(config).toMatch(/token: [A-Za-z0-9_-]{43}\n/)
    writeFileSync(kubeconfig, config)

    // get pods: the table a cluster prints.
    const table = await eventually(async () => {
      const r = await kubectl('get', 'pods')
      return new RegExp(`${WEB}\\s+1/1\\s+Running\\s+0\\s+\\d+s`).test(r.stdout) ? r.stdout : undefined
    }, 60_000, 'web Running in kubectl get pods')
    expect(table.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/)

    const wide = await kubectl('get', 'pods', '-o', 'wide')
    expect(wide.stdout.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/)
    expect(wide.stdout).toMatch(new RegExp(`${WEB}\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+\\d+\\.\\d+\\.\\d+\\.\\d+\\s+${NODE}\\s+<none>\\s+<none>`))

    // get pods -w sees the crasher's exit and restart as new rows.
    const watch = kubectlStream('get', 'pods', '-w')
    try {
      await eventually(() => (new RegExp(`${CRASHER}\\s+\\d/1\\s+\\S+\\s+[1-9]`).test(watch.out()) ? true : undefined), 90_000, 'a restart in kubectl get pods -w')
      // First the pod as listed, then its change as a new row, under one header.
      expect(watch.out()).toMatch(new RegExp(`${CRASHER}\\s.*\\n[\\s\\S]*${CRASHER}\\s+\\d/1\\s+\\S+\\s+[1-9]\\d* \\(\\S+ ago\\)`))
      expect(watch.out().match(/^NAME\s+READY/gm)).toHaveLength(1)
    } finally {
      await watch.stop()
    }

    // get pod -o yaml: the same pod and status `kube-node get pods` shows.
    const yaml = await kubectl('get', 'pod', WEB, '-o', 'yaml')
    expect(yaml.stdout).toMatch(/^kind: Pod$/m)
    expect(yaml.stdout).toContain(`name: ${WEB}`)
    expect(yaml.stdout).toContain(`nodeName: ${NODE}`)
    expect(yaml.stdout).toMatch(/resourceVersion: "\d+"/)
    expect(yaml.stdout).toMatch(/phase: Running/)
    // kube-node's own get of one named pod prints that Pod, as kubectl's does.
    const ours = JSON.parse((await kn(dirs, ['get', 'pods', WEB, '-o', 'json'])).stdout) as {kind: string; status: {podIP: string}}
    expect(ours.kind).toBe('Pod')
    expect(yaml.stdout).toContain(`podIP: ${ours.status.podIP}`)

    // describe pod: Events at the bottom, from the event store.
    const described = await eventually(async () => {
      const r = await kubectl('describe', 'pod', WEB)
      return /Normal\s+Started\s+.*kubelet\s+Started container main/.test(r.stdout) ? r.stdout : undefined
    }, 30_000, 'Started in kubectl describe')
    expect(described).toMatch(/^Status:\s+Running$/m)
    expect(described).toMatch(/Events:\s*\n\s+Type\s+Reason\s+Age\s+From\s+Message/)

    // get events: the store's events, in kubectl's columns.
    const events = await kubectl('get', 'events')
    expect(events.stdout.split('\n')[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/)
    expect(events.stdout).toMatch(new RegExp(`Normal\\s+Started\\s+pod/${WEB}\\s+Started container main`))
    const crasherEvents = await kubectl('get', 'events', '--field-selector', `involvedObject.name=${CRASHER}`)
    expect(crasherEvents.stdout).not.toContain(`pod/${WEB}`)

    // logs, --tail, logs -f.
    const logs = await kubectl('logs', WEB)
    expect(logs.stdout).toMatch(/^tick 0\ntick 1\n/)
    expect((await kubectl('logs', WEB, '--tail', '1')).stdout.trim().split('\n')).toHaveLength(1)
    const follow = kubectlStream('logs', '-f', '--tail', '1', WEB)
    try {
      const seen = (): number[] => [...follow.out().matchAll(/tick (\d+)/g)].map((m) => Number(m[1]))
      await eventually(() => (seen().length >= 3 ? true : undefined), 30_000, 'three lines from kubectl logs -f')
      expect(seen()).toEqual([...seen()].sort((a, b) => a - b))
    } finally {
      await follow.stop()
    }

    // --previous: the crasher's instance before its restart, not the current one.
    const current = await kubectl('logs', CRASHER)
    const previous = await kubectl('logs', CRASHER, '--previous')
    expect(previous.code).toBe(0)
    expect(previous.stdout).toMatch(/^attempt \S+\n$/)
    if (current.stdout.trim() !== '') expect(previous.stdout).not.toBe(current.stdout)

    // A pod that does not change is not news: a watch on it stays quiet.
    const server = `http://127.0.0.1:${port}` // the plain port: pods need no credential
    const list = (await (await fetch(`${server}/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3D${WEB}`)).json()) as {metadata: {resourceVersion: string}}
    const ac = new AbortController()
    const res = await fetch(`${server}/api/v1/namespaces/default/pods?watch=1&fieldSelector=metadata.name%3D${WEB}&resourceVersion=${list.metadata.resourceVersion}`, {signal: ac.signal})
    let quiet = ''
    const reading = (async () => {
      for await (const chunk of res.body!) quiet += Buffer.from(chunk).toString()
    })().catch(() => {})
    await new Promise((r) => setTimeout(r, 3500))
    ac.abort()
    await reading
    expect(quiet).toBe('')

    // A write is refused at once, and the pod keeps running.
    const del = await kubectl('delete', 'pod', WEB)
    expect(del.code).not.toBe(0)
    expect(del.stderr).toMatch(/MethodNotAllowed.*read-only/)
    expect((await kubectl('get', 'pod', WEB)).stdout).toMatch(/Running/)
  })
})
