// kubectl's habits in kube-node's own CLI, through bin/run.js against containerd: two pods named
// `dup` in `default` and `kube-system` are told apart (-n, NAMESPACE/NAME, a NAMESPACE column) and
// never picked silently; selectors, kubectl's resource spellings, -o jsonpath/custom-columns,
// `get pods NAME -o json` as a Pod, `get pods -w`, `help COMMAND` and one-sentence usage errors.
import {spawn} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, ENDPOINT, eventually, knArgs, knAs, makeDirs, writeManifest} from './support.js'

const NODE = 'habits'
const dirs = makeDirs()
const kn = (args: string[]): ReturnType<typeof knAs> => knAs(NODE, dirs, args)

function podYaml(name: string, namespace: string, labels: Record<string, string>): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: ${namespace}
  labels: ${JSON.stringify(labels)}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "echo started in ${namespace}; while true; do sleep 1; done"]
`
}

describe('kubectl habits (real containerd)', () => {
  beforeAll(async () => {
    await kn(['down', '--all'])
    const files = [
      writeManifest(dirs.work, 'dup-default.yaml', podYaml('dup', 'default', {app: 'dup'})),
      writeManifest(dirs.work, 'dup-system.yaml', podYaml('dup', 'kube-system', {app: 'dup', tier: 'control-plane'})),
      writeManifest(dirs.work, 'solo.yaml', podYaml('solo', 'default', {app: 'solo'})),
    ]
    const r = await kn(['run', ...files.flatMap((f) => ['-f', f]), '--stable-for', '0'])
    expect(r.code, r.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await kn(['down', '--all'])
    dirs.cleanup()
  }, 60_000)

  it('get pods shows a NAMESPACE column when names repeat across namespaces; -n lists one namespace', async () => {
    const all = await kn(['get', 'pods'])
    expect(all.code, all.stderr).toBe(0)
    expect(all.stdout).toMatch(/^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE$/m)
    expect(all.stdout).toMatch(new RegExp(`^default +dup-${NODE} +1/1 +Running`, 'm'))
    expect(all.stdout).toMatch(new RegExp(`^kube-system +dup-${NODE} +1/1 +Running`, 'm'))
    const a = await kn(['get', 'pods', '-A', '-o', 'wide'])
    expect(a.stdout).toMatch(/^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE +IP +NODE/m)
    const system = await kn(['get', 'pods', '-n', 'kube-system'])
    expect(system.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^NAME +READY/), expect.stringMatching(new RegExp(`^dup-${NODE} +1/1 +Running`))])
  })

  it('a name in two namespaces is an error listing them, for logs, describe, exec and delete alike', async () => {
    for (const args of [['logs', 'dup'], ['describe', 'pod', 'dup'], ['exec', 'dup', '--', 'true'], ['delete', 'pod', 'dup'], ['get', 'pods', 'dup']]) {
      const r = await kn(args)
      expect(r.code, args.join(' ')).toBe(1)
      expect(r.stderr).toBe('error: pod "dup" exists in namespaces default, kube-system; choose one with -n NAMESPACE or NAMESPACE/dup\n')
    }
    // Nothing was deleted.
    expect((await kn(['get', 'pods', '-A', '-o', 'name'])).stdout.split('\n').filter(Boolean)).toHaveLength(3)
  })

  it('-n, NAMESPACE/NAME and pod/NAME pick the pod', async () => {
    expect((await kn(['logs', '-n', 'kube-system', 'dup'])).stdout).toBe('started in kube-system\n')
    expect((await kn(['logs', 'default/dup'])).stdout).toBe('started in default\n')
    expect((await kn(['logs', 'pod/solo'])).stdout).toBe('started in default\n')
    const exec = await kn(['exec', 'kube-system/dup', '--', 'echo', 'hi'])
    expect([exec.code, exec.stdout]).toEqual([0, 'hi\n'])
    const described = await kn(['describe', 'pods', 'dup', '-n', 'kube-system'])
    expect(described.code, described.stderr).toBe(0)
    expect(described.stdout).toMatch(/^Namespace: +kube-system$/m)
    expect((await kn(['describe', 'po/solo'])).stdout).toMatch(new RegExp(`^Name: +solo-${NODE}$`, 'm'))
    expect((await kn(['logs', '-n', 'prod', 'solo'])).stderr).toBe('error: pod "solo" not found in namespace "prod"\n')
  })

  it('get pods NAME -o json|yaml prints the Pod; without NAME a PodList', async () => {
    const one = await kn(['get', 'pod/solo', '-o', 'json'])
    expect(one.code, one.stderr).toBe(0)
    expect(JSON.parse(one.stdout)).toMatchObject({kind: 'Pod', metadata: {name: `solo-${NODE}`}, status: {phase: 'Running'}})
    expect((await kn(['get', 'pods', 'solo', '-o', 'yaml'])).stdout).toMatch(/^kind: Pod$/m)
    expect(JSON.parse((await kn(['get', 'po', '-o', 'json'])).stdout)).toMatchObject({kind: 'PodList'})
  })

  it('-l and --field-selector in kubectl syntax; a malformed one exits 2', async () => {
    const names = async (args: string[]): Promise<string[]> => (await kn(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}', ...args])).stdout.split('\n').filter(Boolean)
    expect(await names(['-l', 'app=dup'])).toEqual([`default/dup-${NODE}`, `kube-system/dup-${NODE}`])
    expect(await names(['-l', 'app in (solo, x)'])).toEqual([`default/solo-${NODE}`])
    expect(await names(['-l', 'app,!tier'])).toEqual([`default/dup-${NODE}`, `default/solo-${NODE}`])
    expect(await names(['-A', '--field-selector', 'metadata.namespace!=default,status.phase=Running'])).toEqual([`kube-system/dup-${NODE}`])
    expect(await names(['--field-selector', 'status.phase=Pending'])).toEqual([])
    const bad = await kn(['get', 'pods', '--field-selector', 'spec.containers=x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^error: --field-selector: field "spec.containers" is not supported for pods; use one of metadata.name, /)
    expect((await kn(['get', 'pods', '-l', 'app in (dup'])).code).toBe(2)
  })

  it('-o jsonpath and -o custom-columns as kubectl reads them', async () => {
    const jp = await kn(['get', 'pods', '-n', 'default', '-o', 'jsonpath={.items[*].metadata.name}'])
    expect(jp.stdout).toBe(`dup-${NODE} solo-${NODE}`)
    const phase = await kn(['get', 'pods', 'solo', '-o', 'jsonpath={.status.phase}'])
    expect(phase.stdout).toBe('Running')
    const cc = await kn(['get', 'pods', '-l', 'app=dup', '-o', 'custom-columns=NAMESPACE:.metadata.namespace,TIER:.metadata.labels.tier'])
    expect(cc.stdout.split('\n').map((l) => l.split(/ +/))).toEqual([['NAMESPACE', 'TIER'], ['default', '<none>'], ['kube-system', 'control-plane'], ['']])
  })

  it('events and get events take -n and kubectl event fields', async () => {
    const r = await kn(['get', 'events', '-n', 'kube-system', '-o', 'json'])
    expect(r.code, r.stderr).toBe(0)
    const items = (JSON.parse(r.stdout) as {items: {involvedObject: {namespace: string}}[]}).items
    expect(items.length).toBeGreaterThan(0)
    expect(new Set(items.map((e) => e.involvedObject.namespace))).toEqual(new Set(['kube-system']))
    const all = await kn(['events', '-A', '--field-selector', 'reason=Started'])
    expect(all.stdout).toMatch(/^NAMESPACE +LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/m)
    expect(all.stdout).toMatch(new RegExp(`^kube-system +\\S+ +Normal +Started +pod/dup-${NODE}`, 'm'))
    const started = await kn(['events', 'default/solo', '--field-selector', 'reason=Started'])
    expect(started.stdout).toMatch(new RegExp(`Normal +Started +pod/solo-${NODE}`))
    expect(started.stdout).not.toMatch(/Pulled|Created/)
  })

  it('help COMMAND shows the command\'s own flags and the global ones in one line', async () => {
    const r = await kn(['help', 'run'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/--stable-for/)
    expect(r.stdout).toMatch(/^GLOBAL FLAGS\n {2}--root-dir, --runtime-endpoint, --node-name, -v, \.\.\.: see kube-node --help\n/m)
    expect(r.stdout).not.toMatch(/--cluster-dns/)
    expect((await kn(['--help'])).stdout).toMatch(/--cluster-dns/)
  })

  it('usage errors are one sentence with what to type', async () => {
    const cases: Array<[string[], string]> = [
      [['desribe', 'pod', 'solo'], 'error: unknown command "desribe"; did you mean kube-node describe? (kube-node --help lists the commands)\n'],
      [['run', 'etcd.yaml'], 'error: kube-node run takes manifests with -f: kube-node run -f etcd.yaml\n'],
      [['get', 'nodes'], 'error: kube-node get knows pods and events, not "nodes"; try kube-node get pods\n'],
      [['delete', 'pod'], 'error: delete pod needs a pod name or a selector, e.g. kube-node delete pod web or kube-node delete pods -l app=web\n'],
      [['get', 'pods', '--namspace', 'x'], 'error: kube-node get pods has no flag --namspace; did you mean --namespace? (see kube-node get pods --help)\n'],
    ]
    for (const [args, stderr] of cases) {
      const r = await kn(args)
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, stderr])
    }
  })

  // Last: it deletes a pod.
  it('get pods -w prints a row per change as it happens and ends on SIGINT with 0', async () => {
    const child = spawn(process.execPath, knArgs(dirs, ['get', 'pods', '-w', '-n', 'kube-system'], ENDPOINT, NODE), {env: {...process.env, NO_COLOR: '1'}})
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    await eventually(() => (out.includes(`dup-${NODE}`) ? true : undefined), 30_000, 'the first table')
    const del = await kn(['delete', 'pods', '-n', 'kube-system', '-l', 'app=dup'])
    expect(del.stdout).toBe(`pod/dup-${NODE} deleted\n`)
    await eventually(() => (out.trim().split('\n').length >= 3 ? true : undefined), 30_000, 'a row for the change')
    child.kill('SIGINT')
    expect(await exited).toBe(0)
    const lines = out.trim().split('\n')
    expect(lines[0]).toMatch(/^NAME +READY +STATUS/)
    expect(lines.slice(1).every((l) => l.startsWith(`dup-${NODE} `))).toBe(true)
    // The other dup is untouched.
    expect((await kn(['get', 'pods', 'default/dup', '-o', 'name'])).stdout).toBe(`pod/dup-${NODE}\n`)
  }, 90_000)
})
