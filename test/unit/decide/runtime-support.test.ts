import {describe, expect, it} from 'vitest'
import {makeStaticPod} from '../../support/pods.js'
import type {StaticPod} from '../../../src/api/types.js'
import {
  needsRuntimeSupport,
  recursiveReadOnlySupported,
  RUNTIME_REASON,
  runtimeRefusal,
  supplementalGroupsRefusal,
  type RuntimeSupport,
} from '../../../src/decide/runtime-support.js'
import {admitPod, checkRuntimeSupport} from '../../../src/decide/admission.js'
import type {NodeInfo} from '../../../src/util/node-info.js'

type Pod = StaticPod['pod']

/** containerd 1.6 on a host without AppArmor: nothing optional. */
const OLD: RuntimeSupport = {
  runtime: {name: 'containerd', version: '1.6.20'},
  handlers: [],
  supplementalGroupsPolicy: false,
  appArmor: {enabled: false, profiles: new Set()},
}
/** A runtime reporting every feature on a host with AppArmor and one loaded profile. */
const NEW: RuntimeSupport = {
  runtime: {name: 'containerd', version: '2.1.0'},
  handlers: [{name: '', recursiveReadOnlyMounts: true, userNamespaces: true}],
  supplementalGroupsPolicy: true,
  appArmor: {enabled: true, profiles: new Set(['k8s-deny-write'])},
}

const ro = (recursiveReadOnly: string) => (p: Pod): void => {
  p.spec.volumes = [{name: 'data', emptyDir: {}}]
  p.spec.containers[0]!.volumeMounts = [{name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly}]
}
const containerAppArmor = (type: string, localhostProfile?: string) => (p: Pod): void => {
  p.spec.containers[0]!.securityContext = {appArmorProfile: {type, ...(localhostProfile === undefined ? {} : {localhostProfile})}}
}
const annotation = (value: string) => (p: Pod): void => {
  p.metadata.annotations = {'container.apparmor.security.beta.kubernetes.io/app': value}
}

interface Row {
  mutate: (p: Pod) => void
  support: RuntimeSupport
  /** The refusal's reason, or undefined when the pod is admitted. */
  reason: string | undefined
  /** A part of the message that must appear. */
  says?: string
}

const rows: Record<string, Row> = {
  'a plain pod on the old runtime': {mutate: () => {}, support: OLD, reason: undefined},
  'hostUsers: true needs nothing': {mutate: (p) => (p.spec.hostUsers = true), support: OLD, reason: undefined},
  'hostUsers: false without user namespaces': {
    mutate: (p) => (p.spec.hostUsers = false),
    support: OLD,
    reason: RUNTIME_REASON.userNamespaces,
    says: 'spec.hostUsers: false needs user namespaces, which the runtime (containerd 1.6.20) does not report supporting',
  },
  'hostUsers: false with a handler reporting user namespaces': {mutate: (p) => (p.spec.hostUsers = false), support: NEW, reason: undefined},
  'hostUsers: false when only another handler has user namespaces': {
    mutate: (p) => (p.spec.hostUsers = false),
    support: {...NEW, handlers: [{name: 'kata', recursiveReadOnlyMounts: true, userNamespaces: true}]},
    reason: RUNTIME_REASON.userNamespaces,
  },
  'recursiveReadOnly Enabled without the feature': {
    mutate: ro('Enabled'),
    support: OLD,
    reason: RUNTIME_REASON.recursiveReadOnly,
    says: 'spec.containers[0].volumeMounts[0].recursiveReadOnly: Enabled (volume "data") needs recursive read-only mounts',
  },
  'recursiveReadOnly Enabled in an init container': {
    mutate: (p) => {
      ro('Enabled')(p)
      p.spec.initContainers = [{...p.spec.containers[0]!, name: 'init'}]
      p.spec.containers[0]!.volumeMounts = []
    },
    support: OLD,
    reason: RUNTIME_REASON.recursiveReadOnly,
    says: 'spec.initContainers[0].volumeMounts[0].recursiveReadOnly',
  },
  'recursiveReadOnly Enabled with the feature': {mutate: ro('Enabled'), support: NEW, reason: undefined},
  'recursiveReadOnly IfPossible falls back': {mutate: ro('IfPossible'), support: OLD, reason: undefined},
  'recursiveReadOnly Disabled': {mutate: ro('Disabled'), support: OLD, reason: undefined},
  'an image volume on containerd 1.6 names the runtime': {
    mutate: (p) => (p.spec.volumes = [{name: 'model', image: {reference: 'registry.example/model:1'}}]),
    support: OLD,
    reason: RUNTIME_REASON.imageVolume,
    says: 'spec.volumes[0].image: image volumes need a runtime that mounts OCI images through the CRI (containerd 2.1 or later), and the runtime is containerd 1.6.20',
  },
  'an image volume on containerd 2.1 says kube-node lacks it': {
    mutate: (p) => (p.spec.volumes = [{name: 'x', emptyDir: {}}, {name: 'model', image: {reference: 'registry.example/model:1'}}]),
    support: NEW,
    reason: RUNTIME_REASON.imageVolume,
    says: 'spec.volumes[1].image: the runtime (containerd 2.1.0) can mount OCI images, but kube-node does not pass image volumes to it yet',
  },
  'AppArmor Unconfined without AppArmor': {mutate: containerAppArmor('Unconfined'), support: OLD, reason: undefined},
  'AppArmor RuntimeDefault without AppArmor (the kubelet refuses it too)': {
    mutate: containerAppArmor('RuntimeDefault'),
    support: OLD,
    reason: RUNTIME_REASON.appArmor,
    says: 'Cannot enforce AppArmor: spec.containers[0].securityContext.appArmorProfile asks for the RuntimeDefault profile, but AppArmor is not enabled on the host',
  },
  'AppArmor Localhost without AppArmor': {
    mutate: containerAppArmor('Localhost', 'k8s-deny-write'),
    support: OLD,
    reason: RUNTIME_REASON.appArmor,
    says: 'the Localhost profile "k8s-deny-write", but AppArmor is not enabled on the host',
  },
  'AppArmor Localhost loaded on the host': {mutate: containerAppArmor('Localhost', 'k8s-deny-write'), support: NEW, reason: undefined},
  'AppArmor Localhost not loaded on the host': {
    mutate: containerAppArmor('Localhost', 'other'),
    support: NEW,
    reason: RUNTIME_REASON.appArmor,
    says: 'the Localhost profile "other", which is not loaded on the host',
  },
  'AppArmor RuntimeDefault with AppArmor': {mutate: containerAppArmor('RuntimeDefault'), support: NEW, reason: undefined},
  'the pod-level profile counts even when every container is Unconfined': {
    mutate: (p) => {
      p.spec.securityContext = {appArmorProfile: {type: 'RuntimeDefault'}}
      containerAppArmor('Unconfined')(p)
    },
    support: OLD,
    reason: RUNTIME_REASON.appArmor,
    says: 'spec.securityContext.appArmorProfile asks for the RuntimeDefault profile',
  },
  'the deprecated annotation names its field': {
    mutate: annotation('localhost/k8s-deny-write'),
    support: OLD,
    reason: RUNTIME_REASON.appArmor,
    says: 'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app] asks for the Localhost profile "k8s-deny-write"',
  },
  'the annotation unconfined needs nothing': {mutate: annotation('unconfined'), support: OLD, reason: undefined},
  'the container field wins over the annotation': {
    mutate: (p) => {
      annotation('localhost/missing')(p)
      containerAppArmor('Unconfined')(p)
    },
    support: OLD,
    reason: undefined,
  },
  'supplementalGroupsPolicy Strict without the feature': {
    mutate: (p) => (p.spec.securityContext = {supplementalGroupsPolicy: 'Strict'}),
    support: OLD,
    reason: RUNTIME_REASON.supplementalGroupsPolicy,
    says: 'SupplementalGroupsPolicy=Strict is not supported in this node: spec.securityContext.supplementalGroupsPolicy: Strict needs the supplemental_groups_policy feature, which the runtime (containerd 1.6.20) does not report supporting',
  },
  'supplementalGroupsPolicy Strict with the feature': {mutate: (p) => (p.spec.securityContext = {supplementalGroupsPolicy: 'Strict'}), support: NEW, reason: undefined},
  'supplementalGroupsPolicy Merge needs nothing': {mutate: (p) => (p.spec.securityContext = {supplementalGroupsPolicy: 'Merge'}), support: OLD, reason: undefined},
}

describe('checkRuntimeSupport', () => {
  it.each(Object.entries(rows))('%s', (_name, row) => {
    const sp = makeStaticPod(row.mutate)
    const r = checkRuntimeSupport(sp.pod, row.support)
    expect(r?.reason).toBe(row.reason)
    if (row.says) expect(r?.message).toContain(row.says)
  })
})

describe('needsRuntimeSupport: only pods using such a field make the runtime be asked', () => {
  it.each<[string, (p: Pod) => void, boolean]>([
    ['a plain pod', () => {}, false],
    ['hostUsers: true', (p) => (p.spec.hostUsers = true), false],
    ['hostUsers: false', (p) => (p.spec.hostUsers = false), true],
    ['AppArmor Unconfined', containerAppArmor('Unconfined'), false],
    ['AppArmor Localhost', containerAppArmor('Localhost', 'x'), true],
    ['an annotation runtime/default', annotation('runtime/default'), true],
    ['recursiveReadOnly Disabled', ro('Disabled'), false],
    ['recursiveReadOnly IfPossible (the config depends on it)', ro('IfPossible'), true],
    ['an image volume', (p) => (p.spec.volumes = [{name: 'm', image: {reference: 'r'}}]), true],
    ['supplementalGroupsPolicy Strict', (p) => (p.spec.securityContext = {supplementalGroupsPolicy: 'Strict'}), true],
  ])('%s → %s', (_name, mutate, want) => {
    expect(needsRuntimeSupport(makeStaticPod(mutate).pod)).toBe(want)
  })
})

describe('the order, as the kubelet admits', () => {
  const node: NodeInfo = {name: 'node1', maxPods: 110, capacity: {cpuMilli: 2000, memoryBytes: 2 ** 32, pods: 110}, labels: {}, os: 'linux'}
  it('supplementalGroupsPolicy comes before the predicates, the runtime fields after them', () => {
    const sp = makeStaticPod((p) => {
      p.spec.securityContext = {supplementalGroupsPolicy: 'Strict'}
      p.spec.hostUsers = false
      p.spec.nodeName = 'other'
    })
    expect(admitPod(sp, [], node, OLD)).toMatchObject({admit: false, reason: RUNTIME_REASON.supplementalGroupsPolicy})
    sp.pod.spec.securityContext = {}
    expect(admitPod(sp, [], node, OLD)).toMatchObject({admit: false, reason: 'NodeName'})
    sp.pod.spec.nodeName = 'node1'
    expect(admitPod(sp, [], node, OLD)).toMatchObject({admit: false, reason: RUNTIME_REASON.userNamespaces})
  })
  it('without the runtime features admission leaves these fields to the later check', () => {
    const sp = makeStaticPod((p) => (p.spec.hostUsers = false))
    expect(admitPod(sp, [], node)).toEqual({admit: true})
  })
  it('the separate checks agree with checkRuntimeSupport', () => {
    const sp = makeStaticPod((p) => (p.spec.securityContext = {supplementalGroupsPolicy: 'Strict'}))
    expect(supplementalGroupsRefusal(sp.pod, OLD)?.reason).toBe(RUNTIME_REASON.supplementalGroupsPolicy)
    expect(runtimeRefusal(sp.pod, OLD)).toBeUndefined()
  })
})

describe('recursiveReadOnlySupported', () => {
  it('reads the default handler only', () => {
    expect(recursiveReadOnlySupported(undefined)).toBe(false)
    expect(recursiveReadOnlySupported(OLD)).toBe(false)
    expect(recursiveReadOnlySupported(NEW)).toBe(true)
    expect(recursiveReadOnlySupported({...NEW, handlers: [{name: 'runc', recursiveReadOnlyMounts: true, userNamespaces: false}]})).toBe(false)
  })
})
