import {describe, expect, it} from 'vitest'
import type {PodSource} from '../../../src/api/types.js'
import {applyDefaults} from '../../../src/manifest/defaults.js'
import {staticPodUid} from '../../../src/util/hash.js'
import {basePod, podWith, withPath} from './pod-builder.js'

const fileSource: PodSource = {kind: 'file', location: 'pods/web.yaml', document: 0}
const defaults = (pod: unknown, nodeName = 'Node-1', source = fileSource) => applyDefaults(pod, {nodeName, source})

describe('applyDefaults: identity', () => {
  it('renames the pod <name>-<lowercase node>, defaults the namespace and sets the node', () => {
    const {pod, manifestName, source} = defaults(basePod())
    expect(pod.metadata.name).toBe('web-node-1')
    expect(pod.metadata.namespace).toBe('default')
    expect(pod.spec.nodeName).toBe('Node-1')
    expect(manifestName).toBe('web')
    expect(source).toEqual(fileSource)
  })

  it('derives the UID from node, namespace and name; config.hash follows the content', () => {
    const {pod} = defaults(basePod())
    expect(pod.metadata.uid).toBe(staticPodUid('Node-1', 'default', 'web'))
    expect(pod.metadata.uid).toMatch(/^[0-9a-f]{32}$/)
    const hash = pod.metadata.annotations?.['kubernetes.io/config.hash']
    expect(hash).toMatch(/^[0-9a-f]{32}$/)
    // The same manifest gives the same hash; an edit gives another, and the UID stays.
    expect(defaults(basePod()).pod.metadata.annotations?.['kubernetes.io/config.hash']).toBe(hash)
    const edited = defaults(podWith('spec.containers.0.image', 'nginx:1.28')).pod
    expect(edited.metadata.annotations?.['kubernetes.io/config.hash']).not.toBe(hash)
    expect(edited.metadata.uid).toBe(pod.metadata.uid)
  })

  it('keeps the UID when the image or the file changes', () => {
    const before = defaults(basePod()).pod.metadata.uid
    const edited = defaults(podWith('spec.containers.0.image', 'nginx:1.28'), 'Node-1', {kind: 'file', location: 'other.yaml', document: 3})
    expect(edited.pod.metadata.uid).toBe(before)
  })

  it.each([
    ['another node', basePod(), 'node-2'],
    ['another namespace', podWith('metadata.namespace', 'kube-system'), 'Node-1'],
    ['another name', podWith('metadata.name', 'api'), 'Node-1'],
  ])('gives a different UID for %s', (_what, pod, node) => {
    expect(defaults(pod, node).pod.metadata.uid).not.toBe(defaults(basePod()).pod.metadata.uid)
  })

  it('keeps a UID written in the manifest, as the kubelet does', () => {
    expect(defaults(podWith('metadata.uid', 'fixed-uid')).pod.metadata.uid).toBe('fixed-uid')
  })

  it.each<[PodSource['kind'], string, boolean]>([
    ['file', 'file', true],
    ['stdin', 'file', true],
    ['http', 'http', false],
  ])('a %s source gets config.source %s (NoExecute toleration: %s)', (kind, annotation, tolerates) => {
    const {pod} = defaults(basePod(), 'n', {kind, location: 'x', document: 0})
    expect(pod.metadata.annotations?.['kubernetes.io/config.source']).toBe(annotation)
    expect(pod.spec.tolerations ?? []).toEqual(tolerates ? [{operator: 'Exists', effect: 'NoExecute'}] : [])
    expect(pod.metadata.annotations?.['kubernetes.io/config.seen']).toBeUndefined()
  })

  it('does not add the toleration twice', () => {
    const pod = podWith('spec.tolerations', [{operator: 'Exists'}])
    expect(defaults(pod).pod.spec.tolerations).toEqual([{operator: 'Exists'}])
  })

  it('keeps labels and annotations of the manifest', () => {
    const {pod} = defaults(podWith('metadata.annotations', {note: 'x'}))
    expect(pod.metadata.labels).toEqual({app: 'web'})
    expect(pod.metadata.annotations?.['note']).toBe('x')
  })

  it('never changes its input', () => {
    const input = withPath(podWith('spec.hostNetwork', true), 'spec.containers.0.livenessProbe', {httpGet: {port: 80}})
    const copy = structuredClone(input)
    defaults(input)
    expect(input).toEqual(copy)
  })
})

describe('applyDefaults: API defaults', () => {
  const spec = defaults(basePod()).pod.spec
  it.each([
    ['restartPolicy', spec.restartPolicy, 'Always'],
    ['dnsPolicy', spec.dnsPolicy, 'ClusterFirst'],
    ['terminationGracePeriodSeconds', spec.terminationGracePeriodSeconds, 30],
    ['securityContext', spec.securityContext, {}],
    ['schedulerName', spec.schedulerName, 'default-scheduler'],
    ['enableServiceLinks', spec.enableServiceLinks, true],
    ['container terminationMessagePath', spec.containers[0]?.terminationMessagePath, '/dev/termination-log'],
    ['container terminationMessagePolicy', spec.containers[0]?.terminationMessagePolicy, 'File'],
    ['port protocol', spec.containers[0]?.ports?.[0]?.protocol, 'TCP'],
    ['no hostPort without hostNetwork', spec.containers[0]?.ports?.[0]?.hostPort, undefined],
  ])('%s', (_field, actual, expected) => {
    expect(actual).toEqual(expected)
  })

  it('keeps values that are set', () => {
    let pod = podWith('spec.restartPolicy', 'Never')
    pod = withPath(pod, 'spec.terminationGracePeriodSeconds', 0)
    pod = withPath(pod, 'spec.enableServiceLinks', false)
    const s = defaults(pod).pod.spec
    expect([s.restartPolicy, s.terminationGracePeriodSeconds, s.enableServiceLinks]).toEqual(['Never', 0, false])
  })

  it('with hostNetwork, defaults hostPort to containerPort', () => {
    expect(defaults(podWith('spec.hostNetwork', true)).pod.spec.containers[0]?.ports?.[0]?.hostPort).toBe(80)
  })

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/busybox', 'Always'],
    ['localhost:5000/busybox:1.36', 'IfNotPresent'],
    ['registry.example.com:443/team/app', 'Always'],
    ['busybox@sha256:0a4eaa0eecf5f8c050e5bba433f58c052be7587ee8af3e8b3910ef9ab5fbe9f5', 'IfNotPresent'],
    ['busybox:latest@sha256:0a4eaa0eecf5f8c050e5bba433f58c052be7587ee8af3e8b3910ef9ab5fbe9f5', 'Always'],
  ])('imagePullPolicy of %s is %s', (image, policy) => {
    expect(defaults(podWith('spec.containers.0.image', image)).pod.spec.containers[0]?.imagePullPolicy).toBe(policy)
  })

  it('keeps an explicit imagePullPolicy and defaults init containers too', () => {
    let pod = podWith('spec.containers.0.imagePullPolicy', 'Never')
    pod = withPath(pod, 'spec.initContainers', [{name: 'init', image: 'busybox'}])
    const s = defaults(pod).pod.spec
    expect(s.containers[0]?.imagePullPolicy).toBe('Never')
    expect(s.initContainers?.[0]).toMatchObject({imagePullPolicy: 'Always', terminationMessagePolicy: 'File'})
  })

  it('fills probe defaults', () => {
    const pod = podWith('spec.containers.0.readinessProbe', {httpGet: {port: 80}, periodSeconds: 2})
    expect(defaults(pod).pod.spec.containers[0]?.readinessProbe).toEqual({
      httpGet: {port: 80, path: '/', scheme: 'HTTP'},
      periodSeconds: 2,
      timeoutSeconds: 1,
      successThreshold: 1,
      failureThreshold: 3,
    })
  })

  it('turns a volume without a source into an emptyDir and sets default file modes', () => {
    const pod = podWith('spec.volumes', [{name: 'data'}, {name: 'cfg', configMap: {name: 'settings'}}])
    expect(defaults(pod).pod.spec.volumes).toEqual([
      {name: 'data', emptyDir: {}},
      {name: 'cfg', configMap: {name: 'settings', defaultMode: 0o644}},
    ])
  })

  it('defaults requests to limits', () => {
    const pod = podWith('spec.containers.1.resources', {limits: {cpu: '1', memory: '1Gi'}, requests: {cpu: '500m'}})
    expect(defaults(pod).pod.spec.containers[1]?.resources?.requests).toEqual({cpu: '500m', memory: '1Gi'})
  })

  it('sets the phase Pending', () => {
    expect(defaults(podWith('status', {phase: 'Running'})).pod.status).toEqual({phase: 'Pending'})
  })
})
