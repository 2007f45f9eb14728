// `kube-node run` against a real containerd: the pod really runs, a second run changes nothing,
// bad input changes nothing, a missing image fails cleanly, and `down` removes everything.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {join} from 'node:path'
import {ROOT, NODE, ctrContainersWithLabel, kn, makeDirs, podYaml, writeManifest} from './support.js'

const dirs = makeDirs()
const POD_NAME_LABEL = 'io.kubernetes.pod.name'

interface PodJson {
  metadata: {name: string; uid: string; namespace: string}
  status: {
    phase: string
    podIP?: string
    conditions?: {type: string; status: string}[]
    containerStatuses?: {name: string; containerID?: string; ready: boolean; restartCount: number; image: string; imageID: string; state: Record<string, {reason?: string}>}[]
  }
}

async function podsJson(): Promise<PodJson[]> {
  const r = await kn(dirs, ['get', 'pods', '-o', 'json'])
  expect(r.code, r.stderr).toBe(0)
  const list = JSON.parse(r.stdout) as {kind: string; items: PodJson[]}
  expect(list.kind).toBe('PodList')
  // Only this node's pods: the runtime may hold other kube-node pods (another node name).
  return list.items.filter((p) => p.metadata.name.endsWith(`-${NODE}`))
}

describe('kube-node run (real containerd)', () => {
  beforeAll(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterEach(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it('runs the quickstart pod and prints it Running', async () => {
    const r = await kn(dirs, ['run', '-f', join(ROOT, 'manifests/hello.yaml')])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^NAME\\s+READY\\s+STATUS`, 'm'))
    expect(r.stdout).toMatch(new RegExp(`^hello-${NODE}\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+ok`, 'm'))
    // The sandbox and the container exist in containerd, labelled the kubelet's way.
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `hello-${NODE}`)).toHaveLength(2)
  })

  it('a second identical run changes nothing: same sandbox and container IDs', async () => {
    const manifest = writeManifest(dirs.work, 'idem.yaml', podYaml('idem'))
    expect((await kn(dirs, ['run', '-f', manifest])).code).toBe(0)
    const before = ctrContainersWithLabel(POD_NAME_LABEL, `idem-${NODE}`).sort()
    const firstIds = (await podsJson()).map((p) => p.status.containerStatuses?.[0]?.containerID)
    const plan = await kn(dirs, ['plan', '-f', manifest])
    expect(plan.stdout).toContain('nothing to do')
    const again = await kn(dirs, ['run', '-f', manifest])
    expect(again.code, again.stderr).toBe(0)
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `idem-${NODE}`).sort()).toEqual(before)
    expect((await podsJson()).map((p) => p.status.containerStatuses?.[0]?.containerID)).toEqual(firstIds)
  })

  it('invalid input exits 2, names file, document and field, and creates nothing', async () => {
    const good = writeManifest(dirs.work, 'good.yaml', podYaml('good'))
    const bad = writeManifest(dirs.work, 'bad.yaml', podYaml('bad').replace('name: main', 'name: Main_Container'))
    const r = await kn(dirs, ['run', '-f', good, '-f', bad])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('bad.yaml, document 0, field spec.containers[0].name')
    expect(r.stdout).toBe('')
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `good-${NODE}`)).toEqual([])
  })

  it('a missing image fails the pod with ErrImagePull within the timeout', async () => {
    const manifest = writeManifest(dirs.work, 'missing.yaml', podYaml('missing', {image: 'localhost:5000/does-not-exist:1.0'}))
    const started = Date.now()
    const r = await kn(dirs, ['run', '-f', manifest, '--timeout', '60s', '-o', 'json'])
    expect(r.code).toBe(1)
    expect(Date.now() - started).toBeLessThan(60_000)
    const pod = (JSON.parse(r.stdout) as {items: PodJson[]}).items[0]!
    expect(pod.status.containerStatuses?.[0]?.state['waiting']?.reason).toBe('ErrImagePull')
    expect(r.stderr).toMatch(new RegExp(`missing-${NODE}.*ErrImagePull`))
  })

  it('get pods -o json prints a v1 PodList with kubelet-style status', async () => {
    const manifest = writeManifest(dirs.work, 'shape.yaml', podYaml('shape'))
    expect((await kn(dirs, ['run', '-f', manifest])).code).toBe(0)
    const [pod] = await podsJson()
    expect(pod!.metadata).toMatchObject({name: `shape-${NODE}`, namespace: 'default'})
    expect(pod!.metadata.uid).toMatch(/^[0-9a-f]{32}$/)
    expect(pod!.status.phase).toBe('Running')
    expect(pod!.status.podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
    expect(pod!.status.conditions?.map((c) => c.type)).toEqual(expect.arrayContaining(['Initialized', 'Ready', 'ContainersReady', 'PodScheduled']))
    const cs = pod!.status.containerStatuses![0]!
    expect(cs).toMatchObject({name: 'main', ready: true, restartCount: 0})
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/)
    expect(cs.state['running']).toBeDefined()
    expect(cs.imageID).not.toBe('')
  })

  it('down removes the sandbox and containers from containerd', async () => {
    const manifest = writeManifest(dirs.work, 'gone.yaml', podYaml('gone'))
    expect((await kn(dirs, ['run', '-f', manifest])).code).toBe(0)
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `gone-${NODE}`)).toHaveLength(2)
    const r = await kn(dirs, ['down', '-f', manifest])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`pod/gone-${NODE} deleted`)
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `gone-${NODE}`)).toEqual([])
    expect((await kn(dirs, ['get', 'pods', 'gone'])).code).toBe(1)
  })

  it('restarts a failed container under restartPolicy OnFailure until it succeeds', async () => {
    // The first attempt leaves a marker on a hostPath volume and fails; the restart succeeds.
    const marker = join(dirs.work, 'marker')
    const manifest = writeManifest(
      dirs.work,
      'retry.yaml',
      podYaml('retry', {restartPolicy: 'OnFailure', command: 'if [ -f /state/ran ]; then exit 0; fi; touch /state/ran; exit 3'}).replace(
        '    command:',
        `    volumeMounts:\n    - {name: state, mountPath: /state}\n    command:`,
      ) + `  volumes:\n  - name: state\n    hostPath: {path: ${marker}, type: DirectoryOrCreate}\n`,
    )
    const r = await kn(dirs, ['run', '-f', manifest, '--timeout', '60s', '-o', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const pod = (JSON.parse(r.stdout) as {items: PodJson[]}).items[0]!
    expect(pod.status.phase).toBe('Succeeded')
    expect(pod.status.containerStatuses?.[0]?.restartCount).toBe(1)
  })

  it('reports a crash loop when a container keeps failing', async () => {
    const manifest = writeManifest(dirs.work, 'crash.yaml', podYaml('crash', {restartPolicy: 'OnFailure', command: 'exit 3'}))
    const r = await kn(dirs, ['run', '-f', manifest, '--timeout', '6s'])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`crash-${NODE}\\s+0/1\\s+(CrashLoopBackOff|Error)\\s+[1-9]`))
    expect(r.stderr).toMatch(new RegExp(`crash-${NODE} did not reach its goal`))
  })
})
