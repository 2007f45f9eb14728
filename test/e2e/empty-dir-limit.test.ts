// emptyDir sizeLimit on disk, on a real containerd: a pod writing past its emptyDir's limit keeps
// running under `watch` (the kubelet's eviction manager refuses to evict a critical pod, and every
// static pod is critical), and the excess is a Warning event with the kubelet's message.
import {describe, expect, it} from 'vitest'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {BUSYBOX, NODE, eventually, getPods, kn, watchSuite} from './support.js'

const {dirs, manifests, watch} = watchSuite()

describe('emptyDir sizeLimit (real containerd)', () => {
  it('a pod writing 3 MiB into an emptyDir limited to 1Mi is reported, not evicted, under watch', async () => {
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
    // The kubelet never evicts a critical pod, and every static pod is one: the excess shows as a
    // Warning event, and the pod runs on.
    const events = await eventually(async () => {
      const r = await kn(dirs, ['events', 'filler'])
      return /Warning +ExceededEmptyDirLimit/.test(r.stdout) ? r.stdout : undefined
    }, 60_000, 'the emptyDir excess to be reported')
    expect(events).toMatch(/Warning +ExceededEmptyDirLimit +pod\/filler-\S+ +Usage of EmptyDir volume "cache" exceeds the limit "1Mi"\. The pod is not evicted: a static pod is critical\./)
    expect(events).not.toMatch(/Evicted|Killing/)
    const pod = (await getPods(dirs)).find((x) => x.metadata.name === `filler-${NODE}`)
    expect(pod?.status.phase).toBe('Running')
    expect(pod?.status.containerStatuses?.[0]?.state['running']).toBeDefined()
    expect(pod?.status.containerStatuses?.[0]?.restartCount).toBe(0)
  })
})
