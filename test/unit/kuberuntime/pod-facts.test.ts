// A StaticPod carries its facts, worked out once from its pod: what the sync would otherwise ask
// of the hash and resource rules at every turn, and how a runtime object's hash is judged by them.
import {describe, expect, it} from 'vitest'
import type {StaticPod} from '../../../src/api/types.js'
import {applyDefaults} from '../../../src/manifest/defaults.js'
import {podFacts} from '../../../src/kuberuntime/pod-facts.js'
import {HASH_VERSION, containerHash, containerSpecChanged, sandboxHash, sandboxSpecChanged} from '../../../src/kuberuntime/hash.js'
import {cgroupLimits, containerOomScoreAdj, oomScoreAdj, podQosClass} from '../../../src/kuberuntime/resources.js'
import {runtimeContainer, sandbox} from '../../support/pods.js'

const GiB = 2 ** 30

function built(): StaticPod {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web'},
    spec: {
      initContainers: [{name: 'side', image: 'busybox:1.36', restartPolicy: 'Always', resources: {requests: {memory: '64Mi'}}}],
      containers: [{name: 'app', image: 'nginx:1.27', resources: {requests: {cpu: '250m', memory: '128Mi'}, limits: {cpu: '1', memory: '256Mi'}}}],
    },
  }
  return applyDefaults(pod, {nodeName: 'node1', source: {kind: 'file', location: '/etc/kube-node/web.yaml', document: 0}})
}

describe('pod facts', () => {
  it('are what the hash and resource rules say of the built pod, for every container', () => {
    const sp = built()
    expect(sp.facts).toEqual(podFacts(sp.pod))
    expect(sp.facts.sandboxHash).toBe(sandboxHash(sp.pod))
    expect(sp.facts.qosClass).toBe(podQosClass(sp.pod.spec))
    for (const c of [...(sp.pod.spec.initContainers ?? []), ...sp.pod.spec.containers]) {
      const facts = sp.facts.containers.get(c.name)
      expect(facts?.hash).toBe(containerHash(sp.pod, c))
      expect(facts?.limits).toEqual(cgroupLimits(c))
      expect(oomScoreAdj(facts!.oom, 4 * GiB)).toBe(containerOomScoreAdj(sp.pod, c, 4 * GiB))
    }
  })

  it('judge a runtime object by its hash of the current version; another version or none keeps it', () => {
    const sp = built()
    const rc = runtimeContainer(sp, 'app')
    expect(containerSpecChanged(sp.facts, 'app', rc)).toEqual({changed: false, want: rc.hash})
    expect(containerSpecChanged(sp.facts, 'app', {...rc, hash: 'other'})).toEqual({changed: true, want: rc.hash})
    const unversioned = {...rc, hash: 'other'}
    delete unversioned.hashVersion
    expect(containerSpecChanged(sp.facts, 'app', unversioned)).toEqual({changed: true, want: rc.hash})
    expect(containerSpecChanged(sp.facts, 'app', {...rc, hash: 'other', hashVersion: '0'})).toEqual({changed: false, want: ''})
    expect(containerSpecChanged(sp.facts, 'app', {...rc, hash: ''})).toEqual({changed: false, want: ''})
    const s = sandbox(sp)
    expect(sandboxSpecChanged(sp.facts, s)).toEqual({changed: false, want: s.hash})
    expect(sandboxSpecChanged(sp.facts, {...s, hash: 'other'}).changed).toBe(true)
    expect(sandboxSpecChanged(sp.facts, {...s, hash: 'other', hashVersion: `${HASH_VERSION}x`}).changed).toBe(false)
  })
})
