import {describe, expect, it} from 'vitest'
import type {Container, Pod} from '../../../src/api/types.js'
import {HASH_VERSION, containerHash, sandboxHash} from '../../../src/kuberuntime/hash.js'
import {InternalError} from '../../../src/util/errors.js'
import {makeContainer, podOf} from '../../support/pods.js'

function podWith(containers: Container[], mutate: (pod: Pod) => void = () => {}): Pod {
  return podOf((p) => {
    p.spec.containers = containers
    p.spec.volumes = [
      {name: 'data', hostPath: {path: '/srv/data'}},
      {name: 'cache', emptyDir: {}},
    ]
    mutate(p)
  })
}

const base = (): Container =>
  makeContainer({
    command: ['/bin/app'],
    args: ['--port', '8080'],
    env: [{name: 'A', value: '1'}],
    volumeMounts: [{name: 'data', mountPath: '/data'}],
    livenessProbe: {httpGet: {path: '/healthz', port: 8080}, periodSeconds: 10},
  })

describe('containerHash', () => {
  it('is lowercase hex and stable for the same input', () => {
    const pod = podWith([base()])
    const h = containerHash(pod, base())
    expect(h).toMatch(/^[0-9a-f]+$/)
    expect(containerHash(pod, base(), HASH_VERSION)).toBe(h)
  })

  it('is the same for an equal container written with keys in another order', () => {
    const c = base()
    const reordered: Container = {
      volumeMounts: [{mountPath: '/data', name: 'data'}],
      livenessProbe: {periodSeconds: 10, httpGet: {port: 8080, path: '/healthz'}},
      env: [{value: '1', name: 'A'}],
      args: ['--port', '8080'],
      command: ['/bin/app'],
      terminationMessagePolicy: 'File',
      terminationMessagePath: '/dev/termination-log',
      imagePullPolicy: 'IfNotPresent',
      image: 'nginx:1.27',
      name: 'app',
    }
    expect(containerHash(podWith([reordered]), reordered)).toBe(containerHash(podWith([c]), c))
  })

  it.each<[string, (c: Container) => void, (p: Pod) => void]>([
    ['image', (c) => (c.image = 'nginx:1.28'), () => {}],
    ['an env value', (c) => (c.env = [{name: 'A', value: '2'}]), () => {}],
    ['the command', (c) => (c.command = ['/bin/other']), () => {}],
    ['the args', (c) => (c.args = ['--port', '9090']), () => {}],
    ['a resource limit', (c) => (c.resources = {limits: {memory: '128Mi'}}), () => {}],
    ['the security context', (c) => (c.securityContext = {privileged: true}), () => {}],
    ['tty', (c) => (c.tty = true), () => {}],
    ['a mounted volume definition', () => {}, (p) => (p.spec!.volumes![0] = {name: 'data', hostPath: {path: '/srv/other'}})],
  ])('changes when %s changes', (_what, mutateContainer, mutatePod) => {
    const before = containerHash(podWith([base()]), base())
    const c = base()
    mutateContainer(c)
    expect(containerHash(podWith([c], mutatePod), c)).not.toBe(before)
  })

  it.each<[string, (c: Container) => void, (p: Pod) => void]>([
    ['a probe changes', (c) => (c.livenessProbe = {exec: {command: ['true']}}), () => {}],
    ['a readiness probe is added', (c) => (c.readinessProbe = {tcpSocket: {port: 8080}}), () => {}],
    ['imagePullPolicy changes', (c) => (c.imagePullPolicy = 'Always'), () => {}],
    ['an unmounted volume changes', () => {}, (p) => (p.spec!.volumes![1] = {name: 'cache', emptyDir: {medium: 'Memory'}})],
    ['tty: false is written out', (c) => (c.tty = false), () => {}],
    ['an empty ports list and workingDir are written out', (c) => Object.assign(c, {ports: [], workingDir: ''}), () => {}],
  ])('does not change when %s', (_what, mutateContainer, mutatePod) => {
    const before = containerHash(podWith([base()]), base())
    const c = base()
    mutateContainer(c)
    expect(containerHash(podWith([c], mutatePod), c)).toBe(before)
  })

  it('does not change when an unrelated container changes', () => {
    const other = makeContainer({name: 'sidecar', image: 'busybox:1'})
    const before = containerHash(podWith([base(), other]), base())
    const changed = {...other, image: 'busybox:2', command: ['sleep', '1']}
    expect(containerHash(podWith([base(), changed]), base())).toBe(before)
  })

  it('throws InternalError for an unknown version', () => {
    expect(() => containerHash(podWith([base()]), base(), '99')).toThrow(InternalError)
    expect(() => sandboxHash(podWith([base()]), '99')).toThrow(InternalError)
  })
})

describe('sandboxHash', () => {
  const before = sandboxHash(podWith([base()]))

  it.each<[string, (p: Pod) => void]>([
    ['hostNetwork', (p) => (p.spec!.hostNetwork = true)],
    ['a hostPort', (p) => (p.spec!.containers[0]!.ports = [{containerPort: 80, hostPort: 8080}])],
    ['dnsPolicy', (p) => (p.spec!.dnsPolicy = 'Default')],
    ['hostname', (p) => (p.spec!.hostname = 'box')],
    ['sysctls', (p) => (p.spec!.securityContext = {sysctls: [{name: 'net.core.somaxconn', value: '1024'}]})],
    ['a container becoming privileged', (p) => (p.spec!.containers[0]!.securityContext = {privileged: true})],
  ])('changes with %s', (_what, mutate) => {
    expect(sandboxHash(podWith([base()], mutate))).not.toBe(before)
  })

  it.each<[string, (p: Pod) => void]>([
    ['a container image', (p) => (p.spec!.containers[0]!.image = 'nginx:2')],
    ['a container port without hostPort', (p) => (p.spec!.containers[0]!.ports = [{containerPort: 80}])],
    ['a pod label', (p) => (p.metadata!.labels = {app: 'other'})],
    ['restartPolicy', (p) => (p.spec!.restartPolicy = 'Never')],
  ])('does not change with %s', (_what, mutate) => {
    expect(sandboxHash(podWith([base()], mutate))).toBe(before)
  })
})
