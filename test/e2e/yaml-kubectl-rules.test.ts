// YAML read with kubectl's rules, end to end on the real containerd: `defaultMode: 0640` is the
// octal mode 0640 on the files the container sees (YAML 1.2 would read 640, past 0777, and refuse
// the pod), `"it\'s"` is an apostrophe, `yes`/`off` are booleans, a date stays a string.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, kn, makeDirs, writeManifest} from './support.js'

const dirs = makeDirs()

interface PodJson {
  status: {phase: string; containerStatuses?: Array<{state?: {terminated?: {exitCode: number; message?: string}}}>}
}

describe('YAML 1.1 as kubectl reads it (real containerd)', () => {
  beforeAll(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterAll(async () => {
    await kn(dirs, ['down', '--all'])
    dirs.cleanup()
  })

  it('runs a pod whose modes are octal, whose strings use \\\' and whose booleans are yes/off', async () => {
    const manifest = writeManifest(
      dirs.work,
      'yaml11.yaml',
      `apiVersion: v1
kind: ConfigMap
metadata: {name: yaml11-files}
data:
  k: "it\\'s here"
---
apiVersion: v1
kind: Pod
metadata:
  name: yaml11
  annotations:
    released: 2001-12-14
spec:
  restartPolicy: Never
  enableServiceLinks: off
  terminationGracePeriodSeconds: 0x2
  containers:
  - name: main
    image: ${BUSYBOX}
    tty: no
    terminationMessagePolicy: FallbackToLogsOnError
    env:
    - {name: QUOTE, value: "it\\'s"}
    - {name: RELEASED, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['released']"}}}
    volumeMounts:
    - {name: files, mountPath: /files, readOnly: yes}
    command:
    - sh
    - -c
    - |
      mode=$(stat -L -c %a /files/k); content=$(cat /files/k)
      echo "mode=$mode content=$content quote=$QUOTE released=$RELEASED"
      [ "$mode" = 640 ] && [ "$content" = "it's here" ] && [ "$QUOTE" = "it's" ] && [ "$RELEASED" = 2001-12-14 ] || exit 3
  volumes:
  - name: files
    configMap: {name: yaml11-files, defaultMode: 0640}
`,
    )
    const r = await kn(dirs, ['run', '-f', manifest, '--timeout', '60s', '-o', 'json'])
    const pod = r.stdout === '' ? undefined : (JSON.parse(r.stdout) as {items: PodJson[]}).items[0]
    expect(pod?.status.containerStatuses?.[0]?.state?.terminated, r.stderr).toMatchObject({exitCode: 0})
    expect(pod?.status.phase).toBe('Succeeded')
    expect(r.code, r.stderr).toBe(0)
  }, 90_000)
})
