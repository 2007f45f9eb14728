// The no-Pod rule applies to the whole input, as kubectl's "no objects passed" does: a ConfigMap
// or Secret in another -f than the pod that uses it is fine for validate and run; an input of only
// ConfigMaps, or a location that holds nothing, is invalid (exit 2). emptyDir.mode (Kubernetes
// v1.37) is honoured on disk and on a Memory emptyDir's tmpfs. Runs as its own node ("inputs").
import {afterAll, describe, expect, it} from 'vitest'
import {BUSYBOX, eventually, makeDirs, writeManifest, type Result, knAs} from './support.js'

const NODE = 'inputs'
const dirs = makeDirs()
const kn = (rest: string[]): Promise<Result> => knAs(NODE, dirs, rest)

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: reader
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "cat /etc/app/greeting; echo; echo $TOKEN"]
    env:
    - name: TOKEN
      valueFrom: {secretKeyRef: {name: app-secret, key: token}}
    volumeMounts:
    - {name: config, mountPath: /etc/app}
  volumes:
  - name: config
    configMap: {name: app-config}
`
const MODES = `apiVersion: v1
kind: Pod
metadata:
  name: modes
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "stat -c %a /shared-tmp /private /mem"]
    volumeMounts:
    - {name: shared-tmp, mountPath: /shared-tmp}
    - {name: private, mountPath: /private}
    - {name: mem, mountPath: /mem}
  volumes:
  - name: shared-tmp
    emptyDir: {mode: 01777}
  - name: private
    emptyDir: {mode: 0750}
  - name: mem
    emptyDir: {medium: Memory, mode: 0700}
`
const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata: {name: app-config}
data: {greeting: hello from another file}
`
const SECRET = `apiVersion: v1
kind: Secret
metadata: {name: app-secret}
stringData: {token: s3cret}
`

describe('inputs spread over several -f (real containerd for run)', () => {
  const pod = writeManifest(dirs.work, 'pod.yaml', POD)
  const configMap = writeManifest(dirs.work, 'configmap.yaml', CONFIG_MAP)
  const secret = writeManifest(dirs.work, 'secret.yaml', SECRET)
  const empty = writeManifest(dirs.work, 'empty.yaml', '# nothing yet\n')

  afterAll(async () => {
    await kn(['down', '--all'])
    dirs.cleanup()
  })

  it('validate accepts a pod whose ConfigMap and Secret are in other -f, in any order', async () => {
    for (const order of [[pod, configMap, secret], [configMap, secret, pod]]) {
      const r = await kn(['validate', ...order.flatMap((f) => ['-f', f])])
      expect(r.code, r.stderr).toBe(0)
    }
  })

  it('an input of only ConfigMaps and Secrets, or a location that holds nothing, is invalid input naming it', async () => {
    const only = await kn(['validate', '-f', configMap, '-f', secret])
    expect(only.code).toBe(2)
    expect(only.stderr).toContain(`none of the locations given (${configMap}, ${secret}) holds a Pod`)
    const nothing = await kn(['validate', '-f', pod, '-f', configMap, '-f', secret, '-f', empty])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain(`${empty}, document 0: holds no objects`)
  })

  it('run uses the ConfigMap and Secret of other -f', async () => {
    const r = await kn(['run', '-f', pod, '-f', configMap, '-f', secret, '--timeout', '90s'])
    expect(r.code, r.stderr).toBe(0)
    const log = await eventually(async () => {
      const l = await kn(['logs', 'reader'])
      return l.stdout.includes('s3cret') ? l.stdout : undefined
    }, 30_000, 'the pod log')
    expect(log).toBe('hello from another file\ns3cret\n')
  }, 120_000)

  it('emptyDir.mode gives each directory its mode, a Memory one included (accepted with --validate=warn)', async () => {
    const modes = writeManifest(dirs.work, 'modes.yaml', MODES)
    const strict = await kn(['validate', '-f', modes])
    expect(strict.code).toBe(2)
    expect(strict.stderr).toMatch(/emptyDir\.mode: unknown field .*KEP-5502, alpha in Kubernetes v1\.37/)
    const r = await kn(['run', '-f', modes, '--validate', 'warn', '--timeout', '90s'])
    expect(r.code, r.stderr).toBe(0)
    const log = await eventually(async () => {
      const l = await kn(['logs', 'modes'])
      return l.stdout.split('\n').length >= 4 ? l.stdout : undefined
    }, 30_000, 'the pod log')
    expect(log).toBe('1777\n750\n700\n')
  }, 120_000)
})
