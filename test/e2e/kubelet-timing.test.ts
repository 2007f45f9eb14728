// Kubelet semantics of stopping, probing, backing off and validating, on a real containerd:
// sidecars stop after the main containers, a readiness probe with a long period answers at once
// for a container this process started, a container adopted after a restart is not killed by
// liveness before its first probe, the crash back-off counts from the exit, seccomp defaults, and
// unknown fields refused before anything runs.
import {afterAll, describe, expect, it} from 'vitest'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, NODE, ctrContainersWithLabel, eventually, getPods, kn, watchSuite} from './support.js'

const {dirs, manifests, watch} = watchSuite()
afterAll(async () => {
  await kn(dirs, ['down', '--all'])
})

const podYaml = (name: string, spec: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
${spec}`

const find = async (name: string) => (await getPods(dirs)).find((p) => p.metadata.name === `${name}-${NODE}`)

function file(name: string, text: string): string {
  const path = join(dirs.work, name)
  writeFileSync(path, text)
  return path
}

describe('stopping and probing (real containerd)', () => {
  it('down stops the main container first and the sidecar only after it exited', async () => {
    const out = join(dirs.work, 'order')
    mkdirSync(out, {recursive: true})
    // Each records when it got SIGTERM; main takes a second to exit after it.
    const trap = (name: string, exit: string): string => `[sh, -c, "trap '${exit}' TERM; echo ${name}-up >> /out/order; while true; do sleep 0.1; done"]`
    const manifest = file('sidecar.yaml', podYaml('sidecar', `  terminationGracePeriodSeconds: 20
  volumes: [{name: out, hostPath: {path: ${out}, type: Directory}}]
  initContainers:
  - name: proxy
    image: ${BUSYBOX}
    restartPolicy: Always
    volumeMounts: [{name: out, mountPath: /out}]
    command: ${trap('proxy', 'echo proxy-term >> /out/order; exit 0')}
  containers:
  - name: main
    image: ${BUSYBOX}
    volumeMounts: [{name: out, mountPath: /out}]
    command: ${trap('main', 'echo main-term >> /out/order; sleep 1; echo main-exit >> /out/order; exit 0')}
`))
    const up = await kn(dirs, ['run', '-f', manifest, '--timeout', '60s'])
    expect(up.code, up.stderr).toBe(0)
    await eventually(() => (readFileSync(join(out, 'order'), 'utf8').includes('main-up') ? true : undefined), 20_000, 'main to start')
    const down = await kn(dirs, ['down', '-f', manifest])
    expect(down.code, down.stderr).toBe(0)
    const order = readFileSync(join(out, 'order'), 'utf8').split('\n').filter((l) => l.endsWith('-term') || l.endsWith('-exit'))
    expect(order).toEqual(['main-term', 'main-exit', 'proxy-term'])
  })

  it('run --wait ready: a readiness probe with a one-hour period answers at once for a container this run started', async () => {
    const manifest = file('slow-period.yaml', podYaml('slow-period', `  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sleep, "3600"]
    readinessProbe:
      exec: {command: ["true"]}
      periodSeconds: 3600
`))
    // With start-up jitter the first probe could wait up to an hour; the timeout would end the run.
    const r = await kn(dirs, ['run', '-f', manifest, '--wait', 'ready', '--timeout', '30s'])
    expect(r.code, r.stderr + r.stdout).toBe(0)
    expect((await find('slow-period'))?.status.containerStatuses?.[0]?.ready).toBe(true)
  })

  it('a container adopted after watch restarts is not killed by liveness before its first probe', async () => {
    writeFileSync(join(manifests, 'adopted.yaml'), podYaml('adopted', `  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "touch /tmp/ok; while true; do sleep 1; done"]
    livenessProbe:
      exec: {command: [test, -f, /tmp/ok]}
      periodSeconds: 3600
      failureThreshold: 1
`))
    await watch()
    const first = await eventually(async () => {
      const cs = (await find('adopted'))?.status.containerStatuses?.[0]
      return cs?.state['running'] ? cs : undefined
    }, 60_000, 'adopted running')
    await watch()
    // Several resyncs of the new process; its first liveness probe is up to an hour away.
    await new Promise((r) => setTimeout(r, 5000))
    const after = (await find('adopted'))?.status.containerStatuses?.[0]
    expect(after?.containerID).toBe(first.containerID)
    expect(after?.restartCount).toBe(0)
  })

  it('the crash back-off counts from the exit: a container that crashes shows CrashLoopBackOff with the kubelet message', async () => {
    writeFileSync(join(manifests, 'crash.yaml'), podYaml('crash', `  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "sleep 2; exit 3"]
`))
    await watch()
    const waiting = await eventually(async () => {
      const cs = (await find('crash'))?.status.containerStatuses?.[0] as {state: Record<string, {reason?: string; message?: string}>; lastState?: Record<string, {exitCode?: number}>} | undefined
      return cs?.state['waiting']?.reason === 'CrashLoopBackOff' ? cs : undefined
    }, 60_000, 'crash to back off')
    expect(waiting.state['waiting']?.message).toMatch(new RegExp(`^back-off 10s restarting failed container=main pod=crash-${NODE}_default\\(`))
    expect(waiting.lastState?.['terminated']?.exitCode).toBe(3)
  })
})

describe('seccomp default (real containerd)', () => {
  const seccompPod = file('seccomp.yaml', podYaml('seccomp', `  restartPolicy: Never
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "grep '^Seccomp:' /proc/self/status"]
`))

  it('a container without a profile runs RuntimeDefault (filtered) by default, Unconfined with seccompDefault: false', async () => {
    const mode = async (extra: string[]): Promise<string> => {
      const r = await kn(dirs, ['run', '-f', seccompPod, '--timeout', '60s', ...extra])
      expect(r.code, r.stderr).toBe(0)
      const logs = await kn(dirs, ['logs', 'seccomp'])
      await kn(dirs, ['down', '-f', seccompPod])
      return logs.stdout.trim()
    }
    expect(await mode([])).toMatch(/^Seccomp:\s+2$/)
    const config = file('kubelet.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nseccompDefault: false\n')
    expect(await mode(['--config', config])).toMatch(/^Seccomp:\s+0$/)
  })
})

describe('unknown fields (real containerd)', () => {
  const typo = file('typo.yaml', podYaml('typo', `  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sleep, "3600"]
    resouces: {limits: {memory: 64Mi}}
`))

  it('run refuses a typo with exit 2, naming the field, and creates nothing', async () => {
    const r = await kn(dirs, ['run', '-f', typo, '--timeout', '30s'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('field spec.containers[0].resouces: unknown field (did you mean "resources"?)')
    expect(ctrContainersWithLabel('io.kubernetes.pod.name', `typo-${NODE}`)).toEqual([])
  })

  it('--validate=warn runs the pod and prints the unknown field as a warning', async () => {
    const r = await kn(dirs, ['run', '-f', typo, '--timeout', '60s', '--validate', 'warn'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Unknown field in manifest.*spec\.containers\[0\]\.resouces/)
    expect((await find('typo'))?.status.phase).toBe('Running')
    await kn(dirs, ['down', '-f', typo])
  })
})
