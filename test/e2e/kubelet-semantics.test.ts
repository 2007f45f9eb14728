// Kubelet semantics a user notices, on a real containerd: activeDeadlineSeconds, an edited finished
// pod running again, the config hash following each edit, and a dead sandbox recreated with the
// restart count carried over.
import {describe, expect, it} from 'vitest'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, NODE, ctr, eventually, getPods, kn, makeDirs, manifestDir, startWatch, type Daemon} from './support.js'

const dirs = makeDirs()
let daemon: Daemon | undefined
const manifests = manifestDir(dirs, async () => {
  if (daemon) await daemon.stop('SIGTERM')
  daemon = undefined
})
const quick = [manifests, '--file-check-frequency', '1s', '--port', '0', '--healthz-port', '0']

const podYaml = (name: string, spec: string): string => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  terminationGracePeriodSeconds: 1
${spec}`

describe('kubelet semantics (real containerd)', () => {
  const find = async (name: string) => (await getPods(dirs)).find((p) => p.metadata.name === `${name}-${NODE}`)

  it('activeDeadlineSeconds: the pod is stopped and Failed with DeadlineExceeded', async () => {
    writeFileSync(join(manifests, 'short.yaml'), podYaml('short', `  activeDeadlineSeconds: 3\n  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "while true; do sleep 1; done"]}\n`))
    daemon = startWatch(dirs, quick)
    const pod = await eventually(async () => {
      const p = await find('short')
      return p?.status.phase === 'Failed' && p.status.containerStatuses?.[0]?.state['terminated'] ? p : undefined
    }, 60_000, 'short to be stopped by its deadline')
    expect((pod.status as {reason?: string}).reason).toBe('DeadlineExceeded')
    const events = await kn(dirs, ['events', 'short'])
    expect(events.stdout).toMatch(/Warning +DeadlineExceeded +pod\/short-\S+ +Pod was active on the node longer than the specified deadline/)
  })

  it('an edited finished pod runs again; the config hash follows each edit while the UID stays', async () => {
    const job = (message: string): string => podYaml('job', `  restartPolicy: Never\n  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "echo ${message}"]}\n`)
    writeFileSync(join(manifests, 'job.yaml'), job('first'))
    daemon = startWatch(dirs, quick)
    const first = await eventually(async () => {
      const p = await find('job')
      return p?.status.phase === 'Succeeded' ? p : undefined
    }, 60_000, 'the job to succeed')
    writeFileSync(join(manifests, 'job.yaml'), job('second'))
    const second = await eventually(async () => {
      const p = await find('job')
      const cs = p?.status.containerStatuses?.[0]
      return p?.status.phase === 'Succeeded' && cs?.containerID !== first.status.containerStatuses?.[0]?.containerID ? p : undefined
    }, 60_000, 'the edited job to run again')
    expect(second.metadata.uid).toBe(first.metadata.uid)
    expect(second.metadata.annotations?.['kubernetes.io/config.hash']).not.toBe(first.metadata.annotations?.['kubernetes.io/config.hash'])
    expect((await kn(dirs, ['logs', 'job'])).stdout.trim()).toBe('second')
  })

  it('a sandbox that dies is recreated, and the restart count carries over', async () => {
    writeFileSync(join(manifests, 'keep.yaml'), podYaml('keep', `  containers:\n  - {name: main, image: ${BUSYBOX}, command: [sh, -c, "while true; do sleep 1; done"]}\n`))
    daemon = startWatch(dirs, quick)
    await eventually(async () => ((await find('keep'))?.status.containerStatuses?.[0]?.state['running'] ? true : undefined), 60_000, 'keep running')
    const sandbox = ctr(['containers', 'list', '-q', `labels."io.kubernetes.pod.name"==keep-${NODE},labels."io.cri-containerd.kind"==sandbox`]).trim().split('\n')[0] ?? ''
    expect(sandbox).not.toBe('')
    // The sandbox's task dies under the pod, as at a reboot or an OOM of the pause process.
    ctr(['tasks', 'kill', '-s', 'SIGKILL', sandbox])
    const after = await eventually(async () => {
      const cs = (await find('keep'))?.status.containerStatuses?.[0]
      return cs?.state['running'] && cs.restartCount >= 1 ? cs : undefined
    }, 60_000, 'keep running again in a new sandbox')
    expect(after.restartCount).toBeGreaterThanOrEqual(1)
  })
})
