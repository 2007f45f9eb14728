// Nothing looks green that is not (issue 27), on a real containerd through bin/run.js: a manifest
// that stops validating under watch shows in get, describe, events and kubectl; a pod held by
// start-after shows its own STATUS and its manifest; run, delete and down refuse on a watched root
// dir; printed hints repeat the global flags; an unreachable runtime says where kube-node looked;
// kubectl version prints no skew warning. Runs as its own node, in a root dir with a space.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {execFile, spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {BUSYBOX, ENDPOINT, ROOT, eventually, knArgs, knAs, podYaml, type Result} from './support.js'

const NODE = 'green'
const KUBECTL = process.env['KUBECTL'] ?? 'kubectl'
const work = mkdtempSync(join(tmpdir(), 'kn-e2e-green-'))
// A space in the root dir: a printed hint must quote it to be pasted.
const dirs = {rootDir: join(work, 'root dir'), logsDir: join(work, 'logs'), work}
const manifests = join(work, 'manifests')
const kubeconfig = join(work, 'kubeconfig')
const kn = (args: string[]): Promise<Result> => knAs(NODE, dirs, args)

function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Result> {
  return new Promise((resolve) => {
    execFile(file, args, {env: {...env, NO_COLOR: '1'}}, (err, stdout, stderr) => resolve({code: err ? ((err as {code?: number}).code ?? 1) : 0, stdout, stderr}))
  })
}
const kubectl = (...args: string[]): Promise<Result> => run(KUBECTL, ['--request-timeout', '20s', ...args], {...process.env, KUBECONFIG: kubeconfig, HOME: work})

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const {port} = s.address() as {port: number}
      s.close(() => resolve(port))
    })
  })
}

let watch: {stop: () => Promise<void>; stderr: () => string} | undefined
function startWatch(port: number): void {
  const child = spawn(process.execPath, knArgs(dirs, ['watch', manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0'], ENDPOINT, NODE), {env: {...process.env, NO_COLOR: '1'}, stdio: ['ignore', 'ignore', 'pipe']})
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  watch = {stderr: () => err, stop: async () => void (child.kill('SIGTERM'), await exited)}
}

const heldYaml = `apiVersion: v1
kind: Pod
metadata:
  name: held
  labels:
    tier: back
  annotations:
    kube-node.io/start-after: "never-ready"
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo held; sleep 3600"]
`
// Running, never Ready: the held pod stays held.
const neverReadyYaml = `apiVersion: v1
kind: Pod
metadata:
  name: never-ready
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "while true; do sleep 1; done"]
    readinessProbe:
      exec: {command: ["false"]}
      periodSeconds: 1
`

interface PodJson {
  metadata: {name: string; labels?: Record<string, string>; annotations?: Record<string, string>}
  spec: {containers: {command?: string[]}[]}
  status: {phase?: string; reason?: string; conditions?: {type: string; status: string; reason?: string; message?: string}[]}
}

async function podJson(name: string): Promise<PodJson | undefined> {
  const r = await kn(['get', 'pods', '-o', 'json'])
  return r.code === 0 ? (JSON.parse(r.stdout) as {items: PodJson[]}).items.find((p) => p.metadata.name === `${name}-${NODE}`) : undefined
}

describe('nothing looks green that is not (real containerd)', () => {
  beforeAll(async () => {
    mkdirSync(manifests, {recursive: true})
    await kn(['down', '--all'])
  })
  afterAll(async () => {
    await watch?.stop()
    await kn(['down', '--all'])
    rmSync(work, {recursive: true, force: true})
  })

  it('an unreachable runtime says where kube-node looked and how to point it elsewhere', async () => {
    const missing = `unix://${join(work, 'no-runtime.sock')}`
    const child = await new Promise<Result>((resolve) => {
      execFile(process.execPath, knArgs(dirs, ['get', 'pods'], missing, NODE), {env: {...process.env, NO_COLOR: '1'}}, (err, stdout, stderr) => resolve({code: err ? ((err as {code?: number}).code ?? 1) : 0, stdout, stderr}))
    })
    expect(child.code).toBe(1)
    expect(child.stderr).toContain(`cannot reach the container runtime at ${missing}: there is no socket at ${join(work, 'no-runtime.sock')}`)
    expect(child.stderr).toContain('point kube-node at it with --runtime-endpoint or CONTAINER_RUNTIME_ENDPOINT')
    expect(child.stderr).not.toContain('Resolution note')
  })

  it("the failure report's hints carry the global flags the user gave, quoted, and work when pasted", async () => {
    const file = join(work, 'failing.yaml')
    writeFileSync(file, podYaml('failing', {command: 'echo bye; exit 3', restartPolicy: 'Never'}))
    const r = await kn(['run', '-f', file, '--timeout', '60s'])
    expect(r.code).toBe(1)
    const more = /more: (.*)/.exec(r.stdout)?.[1] ?? ''
    const globals = `--root-dir '${dirs.rootDir}' --runtime-endpoint ${ENDPOINT} --node-name ${NODE} --pod-logs-dir ${dirs.logsDir}`
    expect(more).toContain(`kube-node describe pod failing ${globals}`)
    expect(more).toContain(`kube-node logs failing -c main ${globals}`)
    // Pasted into a shell (kube-node being bin/run.js here), the hint asks the same node.
    const describe = more.split('; ')[0]!.replace(/^kube-node /, `${process.execPath} ${join(ROOT, 'bin/run.js')} `)
    const pasted = await run('sh', ['-c', describe])
    expect(pasted.code, pasted.stderr).toBe(0)
    expect(pasted.stdout).toMatch(/^Name: +failing-green$/m)
    await kn(['down', '-f', file])
  })

  it('under watch: run, delete and down refuse; kubectl version has no skew warning and a refused delete suggests nothing watch would undo', async () => {
    writeFileSync(join(manifests, 'web.yaml'), podYaml('web'))
    const port = await freePort()
    startWatch(port)
    await eventually(async () => ((await podJson('web'))?.status.phase === 'Running' ? true : undefined), 60_000, 'web Running')

    const other = join(work, 'other.yaml')
    writeFileSync(other, podYaml('other'))
    const ran = await kn(['run', '-f', other, '--timeout', '20s'])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toMatch(/^error: kube-node watch \(pid \d+\) manages root dir .* and would undo pod "other" within seconds .*: put the manifest in the directory watch reads, or use another --root-dir\n$/)
    // Nothing was started.
    expect(await podJson('other')).toBeUndefined()

    const deleted = await kn(['delete', 'pod', 'web'])
    expect(deleted.code).toBe(1)
    expect(deleted.stderr).toContain(`would start pod "web" again: remove the manifest from what watch reads (${join(manifests, 'web.yaml')}), or stop watch first`)
    const down = await kn(['down', '--all'])
    expect(down.code).toBe(1)
    expect(down.stderr).toMatch(/would start pod "web" again: .*and then down/)
    expect((await podJson('web'))?.status.phase).toBe('Running')
    // A run of the pod watch runs, from the same manifest, changes nothing: it goes on and reports.
    const same = await kn(['run', '-f', join(manifests, 'web.yaml'), '--timeout', '30s'])
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toMatch(/web-green\s.*Running/)

    // kubectl, through the kubeconfig of this watch.
    const config = await eventually(async () => {
      const r = await kn(['kubeconfig'])
      return r.code === 0 ? r.stdout : undefined
    }, 30_000, 'kubeconfig')
    writeFileSync(kubeconfig, config)
    const version = await kubectl('version')
    expect(version.code, version.stderr).toBe(0)
    expect(version.stdout).toMatch(/Server Version: v1\.\d+\.0\+kube-node-/)
    expect(version.stdout + version.stderr).not.toMatch(/WARNING|skew/)
    const refused = await kubectl('delete', 'pod', `web-${NODE}`)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/read-only API/)
    expect(refused.stderr).not.toMatch(/kube-node delete/)
  })

  it('a manifest that stops validating shows in get, describe, events and kubectl, and the last good version keeps running', async () => {
    // The watch of the previous test runs web.
    const file = join(manifests, 'web.yaml')
    writeFileSync(file, podYaml('web').replace('terminationGracePeriodSeconds: 2', 'terminationGracePeriodSeconds: two'))
    const table = await eventually(async () => {
      const r = await kn(['get', 'pods'])
      return /web-green\s+1\/1\s+ManifestError\s/.test(r.stdout) ? r.stdout : undefined
    }, 30_000, 'STATUS ManifestError in get')
    expect(table).toMatch(/web-green\s+1\/1\s+ManifestError\s/)
    const pod = (await podJson('web'))!
    expect(pod.status.phase).toBe('Running')
    const cond = pod.status.conditions?.find((c) => c.type === 'kube-node.io/ManifestValid')
    expect(cond).toMatchObject({status: 'False', reason: 'ManifestError'})
    expect(cond?.message).toContain(`${file}, document 0, field spec.terminationGracePeriodSeconds`)

    const described = await kn(['describe', 'pod', 'web'])
    expect(described.stdout).toMatch(/^Status: +ManifestError$/m)
    expect(described.stdout).toMatch(/kube-node\.io\/ManifestValid +False/)
    expect(described.stdout).toMatch(/Warning +ManifestError .*the manifest is invalid; the last good version keeps running: .*web\.yaml, document 0, field spec\.terminationGracePeriodSeconds/)
    const events = await kn(['events', 'web'])
    expect(events.stdout).toMatch(/Warning +ManifestError +pod\/web-green .*field spec\.terminationGracePeriodSeconds/)

    const k = await kubectl('get', 'pods')
    expect(k.stdout).toMatch(/web-green\s+1\/1\s+ManifestError\s/)
    const kd = await kubectl('describe', 'pod', `web-${NODE}`)
    expect(kd.stdout).toMatch(/kube-node\.io\/ManifestValid +False/)
    expect(kd.stdout).toMatch(/Warning +ManifestError/)

    // Fixed: green again, and an event says so.
    writeFileSync(file, podYaml('web'))
    await eventually(async () => {
      const r = await kn(['get', 'pods'])
      return /web-green\s+1\/1\s+Running\s/.test(r.stdout) ? true : undefined
    }, 30_000, 'web Running again')
    // Events are written a moment after the status that follows them.
    await eventually(async () => (/Normal +ManifestValid +pod\/web-green +the manifest is valid again/.test((await kn(['events', 'web'])).stdout) ? true : undefined), 10_000, 'the ManifestValid event')
  })

  it('a pod held by start-after shows STATUS StartAfter, its labels, annotations and command', async () => {
    writeFileSync(join(manifests, 'never-ready.yaml'), neverReadyYaml)
    writeFileSync(join(manifests, 'held.yaml'), heldYaml)
    const table = await eventually(async () => {
      const r = await kn(['get', 'pods'])
      return /held-green\s+0\/1\s+StartAfter\s/.test(r.stdout) ? r.stdout : undefined
    }, 60_000, 'held with STATUS StartAfter')
    expect(table).toMatch(/held-green\s+0\/1\s+StartAfter\s/)
    const yaml = (await kn(['get', 'pods', 'held', '-o', 'yaml'])).stdout
    expect(yaml).toMatch(/tier: back/)
    expect(yaml).toMatch(/kube-node\.io\/start-after: never-ready/)
    expect(yaml).toMatch(/echo held; sleep 3600/)
    const described = (await kn(['describe', 'pod', 'held'])).stdout
    expect(described).toMatch(/^Labels: +tier=back$/m)
    expect(described).toMatch(/^Message: +waits for pod "never-ready" to be Ready \(start-after\)/m)
    expect((await kubectl('get', 'pods')).stdout).toMatch(/held-green\s+0\/1\s+StartAfter\s/)
  })
})
