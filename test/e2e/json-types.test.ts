// The JSON type of every manifest value against a real containerd: a value the kubelet's decoding
// would refuse (an object written as a list, an integer as a string, an int32 past 2^31) fails the
// whole run with exit 2 before the runtime is touched, whatever --validate says; the forms Go's
// decoding accepts (null for unset, a number for a quantity, a port by name) run.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, NODE, ctrContainersWithLabel, kn, makeDirs, podYaml, writeManifest} from './support.js'

const dirs = makeDirs()
const POD_NAME_LABEL = 'io.kubernetes.pod.name'

describe('JSON types of manifest values (real containerd)', () => {
  beforeAll(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterEach(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it.each(['strict', 'ignore'])('values of the wrong type exit 2 under --validate=%s, one sentence per field, and create nothing', async (mode) => {
    const good = writeManifest(dirs.work, 'typed-good.yaml', podYaml('typed-good'))
    const bad = writeManifest(
      dirs.work,
      'typed-bad.yaml',
      podYaml('typed-bad').replace(
        'spec:\n',
        `spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - weight: 1
        preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}
  tolerations:
  - {operator: Exists, tolerationSeconds: "300"}
  activeDeadlineSeconds: 4294967296000000000000
`,
      ) + '    readinessProbe: {exec: {command: ["true"]}, periodSeconds: 4294967296}\n',
    )
    const r = await kn(dirs, ['run', '--validate', mode, '-f', good, '-f', bad])
    expect(r.code, r.stderr).toBe(2)
    const lines = r.stderr.split('\n').filter((l) => l.includes('typed-bad.yaml, document 0, field'))
    expect(lines.map((l) => l.slice(l.indexOf('field '))).sort()).toEqual([
      'field spec.activeDeadlineSeconds: must be at most 9007199254740991, got 4.294967296e+21',
      'field spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: must be an object, got list',
      'field spec.containers[0].readinessProbe.periodSeconds: must be an integer between -2147483648 and 2147483647 (int32), got 4294967296',
      'field spec.tolerations[0].tolerationSeconds: must be an integer, got "300"',
    ])
    expect(r.stdout).toBe('')
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `typed-good-${NODE}`)).toEqual([])
  })

  it('the forms Go decoding accepts run: null fields, numbers for quantities, a named port', async () => {
    const manifest = writeManifest(
      dirs.work,
      'tolerant.yaml',
      `apiVersion: v1
kind: Pod
metadata:
  name: tolerant
  creationTimestamp: null
spec:
  affinity: null
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: ["sh", "-c", "while true; do sleep 1; done"]
    ports: [{name: probe, containerPort: 8080}]
    resources: {limits: {cpu: 1, memory: 67108864}}
    readinessProbe:
      exec: {command: ["true"]}
      periodSeconds: 1.0
    livenessProbe:
      tcpSocket: {port: probe}
      initialDelaySeconds: 600
`,
    )
    const r = await kn(dirs, ['run', '-f', manifest, '--wait', 'ready', '--timeout', '60s'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^tolerant-${NODE}\\s+1/1\\s+Running`, 'm'))
  })
})
