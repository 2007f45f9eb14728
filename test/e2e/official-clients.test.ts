// The official Kubernetes clients against `kube-node watch`'s read-only API on a real containerd,
// configured from the kubeconfig `kube-node kubeconfig` prints (https, the watch's own CA, a bearer
// token): the JavaScript client from npm (@kubernetes/client-node: list, read, log, an informer's
// list-then-watch with bookmarks that resumes when the server closes its watch and lists again
// after a 410) and Debian's Python client (python3-kubernetes: list, read a log,
// watch.Watch().stream, which sends watch=True). Runs as its own node ("clients").
import {execFile, spawn} from 'node:child_process'
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import * as k8s from '@kubernetes/client-node'
import {ENDPOINT, eventually, knArgs, knAs, makeDirs, podYaml, type Daemon} from './support.js'

const NODE = 'clients'
const dirs = makeDirs()
const manifests = join(dirs.work, 'manifests')
const kubeconfigPath = join(dirs.work, 'kubeconfig')
const kn = (args: string[]) => knAs(NODE, dirs, args)
let daemon: Daemon | undefined

const WEB = `web-${NODE}`
const LATE = `late-${NODE}`
const WEB_YAML = podYaml('web', {command: 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 1; done'})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const {port} = s.address() as {port: number}
      s.close(() => resolve(port))
    })
  })
}

/** `kube-node watch` of this node on the manifests dir, its kubeconfig written once it serves. */
async function startWatch(): Promise<void> {
  const port = await freePort()
  const child = spawn(process.execPath, knArgs(dirs, ['watch', manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0'], ENDPOINT, NODE), {
    env: {...process.env, NO_COLOR: '1'},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  daemon = {pid: child.pid!, stderr: () => err, stop: async (signal = 'SIGTERM') => (child.kill(signal), exited)}
  const config = await eventually(async () => {
    const r = await kn(['kubeconfig'])
    return r.code === 0 ? r.stdout : undefined
  }, 30_000, 'kubeconfig')
  writeFileSync(kubeconfigPath, config)
}

async function stopWatch(): Promise<void> {
  if (daemon) await daemon.stop('SIGTERM')
  daemon = undefined
}

beforeAll(async () => {
  mkdirSync(manifests, {recursive: true})
  await kn(['down', '--all'])
})

afterEach(async () => {
  await stopWatch()
  rmSync(manifests, {recursive: true, force: true})
  mkdirSync(manifests, {recursive: true})
  await kn(['down', '--all'])
})

afterAll(() => dirs.cleanup())

function loadConfig(): k8s.KubeConfig {
  const kc = new k8s.KubeConfig()
  kc.loadFromFile(kubeconfigPath)
  return kc
}

interface SeenEvent {
  /** Which of the watches started (0 first). */
  watch: number
  type: string
  name: string | undefined
  resourceVersion: string | undefined
  code?: number
  reason?: string
}

/**
 * A Watch as client-go's reflector uses one: asking for bookmarks and for the server to close the
 * watch after a few seconds. Records each watch it starts and each event it gets.
 */
class ReflectorWatch extends k8s.Watch {
  readonly started: Array<Record<string, string | number | boolean | undefined>> = []
  readonly events: SeenEvent[] = []
  constructor(
    config: k8s.KubeConfig,
    private readonly timeoutSeconds: number,
  ) {
    super(config)
  }

  override watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: k8s.V1Pod & k8s.V1Status) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController> {
    const params = {...queryParams, allowWatchBookmarks: true, timeoutSeconds: this.timeoutSeconds}
    const index = this.started.push(params) - 1
    return super.watch(
      path,
      params,
      (phase: string, obj: k8s.V1Pod & k8s.V1Status) => {
        this.events.push({watch: index, type: phase, name: obj.metadata?.name, resourceVersion: obj.metadata?.resourceVersion, ...(phase === 'ERROR' ? {code: obj.code, reason: obj.reason} : {})})
        callback(phase, obj)
      },
      done,
    )
  }
}

describe('@kubernetes/client-node against kube-node watch (real containerd)', () => {
  it('lists, reads and reads a log with the kubeconfig credential; an informer lists, watches with bookmarks, resumes when the server closes its watch, and lists again after a 410', async () => {
    writeFileSync(join(manifests, 'web.yaml'), WEB_YAML)
    await startWatch()
    let kc = loadConfig()
    // A client made from the current kubeconfig at each call, as a program that reloads it would.
    const core = (): k8s.CoreV1Api => kc.makeApiClient(k8s.CoreV1Api)

    // list and read.
    const running = await eventually(async () => {
      const list = await core().listNamespacedPod({namespace: 'default'})
      const web = list.items.find((p) => p.metadata?.name === WEB)
      return web?.status?.phase === 'Running' ? list : undefined
    }, 60_000, 'web Running in listNamespacedPod')
    expect(running.metadata?.resourceVersion).toMatch(/^\d+$/)
    const pod = await core().readNamespacedPod({name: WEB, namespace: 'default'})
    expect(pod.spec?.nodeName).toBe(NODE)
    expect(pod.status?.containerStatuses?.[0]?.name).toBe('main')

    // log: needs the bearer token of the kubeconfig.
    const log = await eventually(async () => {
      const text = await core().readNamespacedPodLog({name: WEB, namespace: 'default', container: 'main'})
      return /^tick 0\ntick 1\n/.test(text) ? text : undefined
    }, 30_000, 'two log lines')
    expect(log).toMatch(/^tick 0\n/)

    // The informer: list, then watch from the list's resourceVersion.
    let lists = 0
    const watch = new ReflectorWatch(kc, 4)
    const informer = new k8s.ListWatch<k8s.V1Pod>(
      '/api/v1/namespaces/default/pods',
      watch,
      () => {
        lists++
        return core().listNamespacedPod({namespace: 'default'})
      },
      false,
    )
    const added: string[] = []
    const errors: unknown[] = []
    informer.on('add', (p) => added.push(p.metadata?.name ?? ''))
    // Stopping the informer aborts its request, which it reports as an AbortError: not a failure.
    informer.on('error', (err) => (err as Error | undefined)?.name === 'AbortError' || errors.push(err))
    await informer.start()
    try {
      expect(lists).toBe(1)
      expect(informer.get(WEB, 'default')?.metadata?.name).toBe(WEB)
      const listed = informer.latestResourceVersion()
      expect(watch.started[0]).toMatchObject({resourceVersion: listed, allowWatchBookmarks: true})

      // The server closes the watch after timeoutSeconds, a bookmark just before; the informer
      // watches again from the last version it got (the bookmark's, unless a change came after
      // it), without listing again.
      await eventually(() => (watch.started.length >= 2 ? true : undefined), 20_000, 'the informer watching again after the server closed its watch')
      const first = watch.events.filter((e) => e.watch === 0)
      const bookmark = first.find((e) => e.type === 'BOOKMARK')
      expect(bookmark?.resourceVersion).toMatch(/^\d+$/)
      expect(Number(bookmark!.resourceVersion)).toBeGreaterThanOrEqual(Number(listed))
      expect(watch.started[1]!['resourceVersion']).toBe(first.at(-1)!.resourceVersion)
      expect(lists).toBe(1)

      // A change after the resumed watch started: only it arrives, as ADDED.
      const before = watch.events.length
      writeFileSync(join(manifests, 'late.yaml'), podYaml('late'))
      await eventually(() => (added.includes(LATE) ? true : undefined), 60_000, 'the late pod added through the watch')
      expect(watch.events.slice(before).filter((e) => e.type === 'ADDED').map((e) => e.name)).toContain(LATE)
      expect(watch.events.slice(before).filter((e) => e.type === 'ADDED').map((e) => e.name)).not.toContain(WEB)
      expect(lists).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await informer.stop()
    }

    // A restarted watch hands out versions of its own: the informer's last one is too old now.
    // It gets the API server's 410 Expired, lists again and watches on.
    await stopWatch()
    await startWatch()
    kc = loadConfig()
    watch.config = kc
    const startedBefore = watch.started.length
    await informer.start()
    try {
      await eventually(() => (lists === 2 ? true : undefined), 20_000, 'the informer listing again after 410 Gone')
      const expired = watch.events.find((e) => e.type === 'ERROR')
      expect(expired).toMatchObject({code: 410, reason: 'Expired'})
      expect(watch.started.length).toBeGreaterThan(startedBefore + 1)
      expect(informer.get(WEB, 'default')?.metadata?.name).toBe(WEB)
      expect(informer.get(LATE, 'default')?.metadata?.name).toBe(LATE)
      expect(errors).toEqual([])
    } finally {
      await informer.stop()
    }
  }, 240_000)
})

const PYTHON = `
import json, sys
from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
pods = v1.list_namespaced_pod("default")
out = {
    "names": sorted(p.metadata.name for p in pods.items),
    "resourceVersion": pods.metadata.resource_version,
    "log": v1.read_namespaced_pod_log(sys.argv[2], "default", container="main"),
    "events": [],
}
w = watch.Watch()
for e in w.stream(v1.list_namespaced_pod, "default", timeout_seconds=3):
    out["events"].append([e["type"], e["object"].metadata.name])
print(json.dumps(out))
`

/** Debian's interpreter, which Debian's python3-kubernetes is installed for (not another python3 on PATH). */
const PYTHON3 = process.env['KUBE_NODE_TEST_PYTHON3'] ?? '/usr/bin/python3'

function python(...args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((resolve) => {
    execFile(PYTHON3, ['-c', PYTHON, ...args], {timeout: 60_000}, (err, stdout, stderr) => resolve({code: err ? ((err as {code?: number}).code ?? 1) : 0, stdout, stderr}))
  })
}

describe("Debian's python3-kubernetes against kube-node watch (real containerd)", () => {
  it('lists, reads a log and streams a watch (watch=True) that the server closes after timeout_seconds', async () => {
    writeFileSync(join(manifests, 'web.yaml'), WEB_YAML)
    await startWatch()
    // Once the pod has written a line.
    await eventually(async () => ((await kn(['logs', WEB])).stdout.includes('tick 1') ? true : undefined), 60_000, 'web logging')
    const r = await python(kubeconfigPath, WEB)
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout) as {names: string[]; resourceVersion: string; log: string; events: Array<[string, string]>}
    expect(out.names).toContain(WEB)
    expect(out.resourceVersion).toMatch(/^\d+$/)
    expect(out.log).toMatch(/^tick 0\ntick 1\n/)
    expect(out.events).toContainEqual(['ADDED', WEB])
  }, 120_000)
})
