// The CRI fields of the runtime-dependent pod fields: AppArmor (both forms, as the kubelet sends
// them), recursive read-only mounts, supplemental groups policy.
import {describe, expect, it} from 'vitest'
import type {Container, StaticPod} from '../../../src/api/types.js'
import {buildContainerConfig, type ContainerContext} from '../../../src/kuberuntime/container-config.js'
import {buildSandboxConfig} from '../../../src/kuberuntime/sandbox-config.js'
import {containerFacts} from '../../../src/kuberuntime/pod-facts.js'
import {volumeSources} from '../../../src/volumes/registry.js'
import {HOST_DNS, makeContainer, makeStaticPod} from '../../support/pods.js'

const ROOT = '/var/lib/kube-node'

function config(container: Container, mutate: (p: StaticPod['pod']) => void = () => {}, more: Partial<ContainerContext> = {}) {
  const sp = makeStaticPod((p) => {
    p.spec.containers = [container]
    p.spec.volumes = [{name: 'data', hostPath: {path: '/srv/data'}}]
    mutate(p)
  })
  const sandboxConfig = buildSandboxConfig(sp, {attempt: 0, podLogsDir: '/var/log/pods', hostDns: HOST_DNS, clusterDNS: [], clusterDomain: 'cluster.local'})
  const ctx: ContainerContext = {restartCount: 0, rootDir: ROOT, podIP: '', containerType: 'regular', sandboxConfig, volumeSource: volumeSources(ROOT, sp.pod.metadata.uid), facts: containerFacts(sp.pod, container), ...more}
  return {container: buildContainerConfig(sp.pod, container, ctx), sandbox: sandboxConfig}
}

describe('AppArmor in the container security context', () => {
  const annotated = (value: string) => (p: StaticPod['pod']): void => {
    p.metadata.annotations = {'container.apparmor.security.beta.kubernetes.io/app': value}
  }
  it.each<[string, Partial<Container>, (p: StaticPod['pod']) => void, object]>([
    ['none asked: nothing sent, the runtime default applies', {}, () => {}, {}],
    ['Unconfined', {securityContext: {appArmorProfile: {type: 'Unconfined'}}}, () => {}, {apparmor: {profileType: 'Unconfined', localhostRef: ''}, apparmorProfile: 'unconfined'}],
    ['RuntimeDefault', {securityContext: {appArmorProfile: {type: 'RuntimeDefault'}}}, () => {}, {apparmor: {profileType: 'RuntimeDefault', localhostRef: ''}, apparmorProfile: 'runtime/default'}],
    ['Localhost', {securityContext: {appArmorProfile: {type: 'Localhost', localhostProfile: 'k8s-x'}}}, () => {}, {apparmor: {profileType: 'Localhost', localhostRef: 'k8s-x'}, apparmorProfile: 'localhost/k8s-x'}],
    ['the pod’s profile', {}, (p) => (p.spec.securityContext = {appArmorProfile: {type: 'Unconfined'}}), {apparmorProfile: 'unconfined'}],
    ['the annotation over the pod’s profile', {}, (p) => {
      p.spec.securityContext = {appArmorProfile: {type: 'RuntimeDefault'}}
      annotated('localhost/k8s-y')(p)
    }, {apparmor: {profileType: 'Localhost', localhostRef: 'k8s-y'}, apparmorProfile: 'localhost/k8s-y'}],
    ['the container’s field over the annotation', {securityContext: {appArmorProfile: {type: 'Unconfined'}}}, annotated('runtime/default'), {apparmorProfile: 'unconfined'}],
  ])('%s', (_name, overrides, mutate, want) => {
    const sc = config(makeContainer(overrides), mutate).container.linux?.securityContext
    const got = {...(sc?.apparmor ? {apparmor: sc.apparmor} : {}), ...(sc?.apparmorProfile ? {apparmorProfile: sc.apparmorProfile} : {})}
    expect(got).toMatchObject(want)
    if (Object.keys(want).length === 0) expect(got).toEqual({})
  })
})

describe('recursive read-only mounts', () => {
  const mounted = (recursiveReadOnly: string) => makeContainer({volumeMounts: [{name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly}]})
  it.each<[string, string, boolean, boolean | undefined]>([
    ['Enabled always asks (admission made sure the runtime can)', 'Enabled', false, true],
    ['IfPossible on a runtime that can', 'IfPossible', true, true],
    ['IfPossible on a runtime that cannot: plain read-only', 'IfPossible', false, undefined],
    ['Disabled', 'Disabled', true, undefined],
  ])('%s', (_name, mode, supported, want) => {
    const [m] = config(mounted(mode), () => {}, {recursiveReadOnlyMounts: supported}).container.mounts
    expect(m?.readonly).toBe(true)
    expect(m?.recursiveReadOnly).toBe(want)
  })
})

describe('supplementalGroupsPolicy', () => {
  it.each([['Strict'], ['Merge']])('%s reaches the sandbox and every container', (policy) => {
    const {container, sandbox} = config(makeContainer(), (p) => (p.spec.securityContext = {supplementalGroups: [5], supplementalGroupsPolicy: policy}))
    expect(sandbox.linux?.securityContext?.supplementalGroupsPolicy).toBe(policy)
    expect(container.linux?.securityContext?.supplementalGroupsPolicy).toBe(policy)
  })
  it('unset: nothing sent', () => {
    const {container, sandbox} = config(makeContainer())
    expect(sandbox.linux?.securityContext?.supplementalGroupsPolicy).toBeUndefined()
    expect(container.linux?.securityContext?.supplementalGroupsPolicy).toBeUndefined()
  })
})

describe('SELinux labels, passed through as the kubelet passes them', () => {
  const label = {user: 'system_u', role: 'system_r', type: 'spc_t', level: 's0:c1,c2'}
  it.each<[string, Partial<Container>, (p: StaticPod['pod']) => void, object | undefined, object | undefined]>([
    ['none: nothing sent', {}, () => {}, undefined, undefined],
    ['the pod\'s label: on the sandbox and the container', {}, (p) => void (p.spec.securityContext = {seLinuxOptions: label}), label, label],
    ['the container\'s own label wins for the container only', {securityContext: {seLinuxOptions: {level: 's0:c5'}}}, (p) => void (p.spec.securityContext = {seLinuxOptions: label}), label, {user: '', role: '', type: '', level: 's0:c5'}],
    ['an empty label asks for nothing', {securityContext: {seLinuxOptions: {}}}, () => {}, undefined, undefined],
  ])('%s', (_name, own, mutate, sandbox, container) => {
    const built = config(makeContainer(own), mutate)
    expect(built.sandbox.linux?.securityContext?.selinuxOptions).toEqual(sandbox)
    expect(built.container.linux?.securityContext?.selinuxOptions).toEqual(container)
  })

  it('a kube-node volume may be relabelled by the runtime, a host path never', () => {
    const built = config(makeContainer({volumeMounts: [{name: 'data', mountPath: '/d'}, {name: 'scratch', mountPath: '/s'}]}), (p) => {
      p.spec.volumes = [{name: 'data', hostPath: {path: '/srv/data'}}, {name: 'scratch', emptyDir: {}}]
    })
    expect(built.container.mounts.map((m) => [m.containerPath, m.selinuxRelabel])).toEqual([['/d', false], ['/s', true]])
  })
})
