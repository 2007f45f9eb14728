// emptyDir sizeLimit on disk, on a real containerd: a pod writing past its emptyDir's limit is
// evicted by `watch` as the kubelet's eviction manager evicts it (stopped, Failed, reason Evicted,
// the kubelet's message, a Warning event), and is not started again.
import {describe, expect, it} from 'vitest'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, NODE, eventually, getPods, kn, watchSuite} from './support.js'

const {dirs, manifests, watch} = watchSuite()

describe('emptyDir sizeLimit (real containerd)', () => {
  it('a pod writing 3 MiB into an emptyDir limited to 1Mi is evicted under watch', async () => {
    writeFileSync(
      join(manifests, 'filler.yaml'),
      `apiVersion: v1
kind: Pod
metadata: {name: filler}
spec:
  terminationGracePeriodSeconds: 1
  volumes: [{name: cache, emptyDir: {sizeLimit: 1Mi}}]
  containers:
  - name: main
    image: ${BUSYBOX}
    command: [sh, -c, "dd if=/dev/zero of=/cache/fill bs=1024 count=3072; sync; while true; do sleep 1; done"]
    volumeMounts: [{name: cache, mountPath: /cache}]
`,
    )
    await watch()
    const pod = await eventually(async () => {
      const p = (await getPods(dirs)).find((x) => x.metadata.name === `filler-${NODE}`)
      return p?.status.phase === 'Failed' ? p : undefined
    }, 60_000, 'filler to be evicted')
    const status = pod.status as {reason?: string; message?: string}
    expect(status.reason).toBe('Evicted')
    expect(status.message).toBe('Usage of EmptyDir volume "cache" exceeds the limit "1Mi".')
    expect(pod.status.containerStatuses?.[0]?.state['terminated']).toBeDefined()
    const events = await kn(dirs, ['events', 'filler'])
    expect(events.stdout).toMatch(/Warning +Evicted +pod\/filler-\S+ +Usage of EmptyDir volume "cache" exceeds the limit "1Mi"\./)
    // Still stopped a while later: an evicted pod is not restarted.
    await new Promise((r) => setTimeout(r, 3_000))
    const again = (await getPods(dirs)).find((x) => x.metadata.name === `filler-${NODE}`)
    expect(again?.status.phase).toBe('Failed')
    expect(again?.status.containerStatuses?.[0]?.restartCount).toBe(0)
  })
})
