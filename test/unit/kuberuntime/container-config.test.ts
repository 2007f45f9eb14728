import {describe, expect, it} from 'vitest'
import type {Container, StaticPod} from '../../../src/api/types.js'
import type {LinuxContainerResources, Mount} from '../../../src/cri/api.js'
import {DEFAULT_MASKED_PATHS, DEFAULT_READONLY_PATHS, buildContainerConfig, type ContainerContext} from '../../../src/kuberuntime/container-config.js'
import {HASH_VERSION, containerHash} from '../../../src/kuberuntime/hash.js'
import {buildSandboxConfig} from '../../../src/kuberuntime/sandbox-config.js'
import {ConfigError} from '../../../src/kuberuntime/errors.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {volumeSources} from '../../../src/volumes/registry.js'
import {containerFacts} from '../../../src/kuberuntime/pod-facts.js'
import {HOST_DNS, UID, makeContainer, makeStaticPod} from '../../support/pods.js'

const ROOT = '/var/lib/kube-node'

function setup(container: Container, mutate: (p: StaticPod['pod']) => void = () => {}) {
  const sp = makeStaticPod((p) => {
    p.spec.containers = [container]
    p.spec.volumes = [
      {name: 'data', hostPath: {path: '/srv/data'}},
      {name: 'cache', emptyDir: {}},
      {name: 'conf', configMap: {name: 'c'}},
      {name: 'sec', secret: {secretName: 's'}},
      {name: 'mem', emptyDir: {medium: 'Memory'}},
      {name: 'pvc', persistentVolumeClaim: {claimName: 'x'}},
    ]
    mutate(p)
  })
  const sandboxConfig = buildSandboxConfig(sp, {attempt: 0, podLogsDir: '/var/log/pods', hostDns: HOST_DNS, clusterDNS: [], clusterDomain: 'cluster.local'})
  const ctx: ContainerContext = {restartCount: 3, rootDir: ROOT, podIP: '10.1.2.3', containerType: 'regular', sandboxConfig, volumeSource: volumeSources(ROOT, sp.pod.metadata.uid), facts: containerFacts(sp.pod, container)}
  return {sp, ctx, config: buildContainerConfig(sp.pod, container, ctx)}
}

const build = (overrides: Partial<Container>, mutate?: (p: StaticPod['pod']) => void) => setup(makeContainer(overrides), mutate).config

describe('buildContainerConfig', () => {
  it('sets metadata, image, log path and stdio flags', () => {
    const config = build({tty: true, stdin: true, workingDir: '/work'})
    expect(config.metadata).toEqual({name: 'app', attempt: 3})
    expect(config.image).toEqual({image: 'nginx:1.27', userSpecifiedImage: 'nginx:1.27'})
    expect(config.logPath).toBe('app/3.log')
    expect(config.workingDir).toBe('/work')
    expect([config.tty, config.stdin, config.stdinOnce]).toEqual([true, true, false])
  })

  it('writes exactly the kubelet labels plus kube-node’s own', () => {
    const {config} = setup(makeContainer(), () => {})
    expect(config.labels).toEqual({
      'io.kubernetes.pod.name': 'web-node1',
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': UID,
      'io.kubernetes.container.name': 'app',
      'kube-node.io/managed': 'true',
      'kube-node.io/node': 'node1',
      'kube-node.io/container-type': 'regular',
    })
  })

  it('writes the kubelet annotations and the hash version', () => {
    const preStop = {exec: {command: ['/bin/sh', '-c', 'sleep 5']}}
    const ports = [{containerPort: 80, protocol: 'TCP'}]
    const c = makeContainer({lifecycle: {preStop}, ports})
    const {sp, config} = setup(c)
    expect(config.annotations).toEqual({
      'io.kubernetes.container.hash': containerHash(sp.pod, c),
      'kube-node.io/hash-version': HASH_VERSION,
      'io.kubernetes.container.restartCount': '3',
      // Restarts shown are counted from where this definition first ran (0 when not given).
      'kube-node.io/restart-count-base': '0',
      'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
      'io.kubernetes.container.terminationMessagePolicy': 'File',
      'io.kubernetes.pod.terminationGracePeriod': '30',
      'io.kubernetes.container.preStopHandler': JSON.stringify(preStop),
      'io.kubernetes.container.ports': JSON.stringify(ports),
    })
  })

  it('leaves out preStop, ports and grace period annotations when not set', () => {
    const config = build({}, (p) => delete p.spec.terminationGracePeriodSeconds)
    expect(Object.keys(config.annotations).sort()).toEqual([
      'io.kubernetes.container.hash',
      'io.kubernetes.container.restartCount',
      'io.kubernetes.container.terminationMessagePath',
      'io.kubernetes.container.terminationMessagePolicy',
      'kube-node.io/hash-version',
      'kube-node.io/restart-count-base',
    ])
  })

  it('records the restart count base and the pod version (config hash) the container ran', () => {
    const config = build({}, (p) => void (p.metadata.annotations = {...p.metadata.annotations, 'kubernetes.io/config.hash': 'abc123'}))
    expect(config.annotations['kube-node.io/config-hash']).toBe('abc123')
  })

  it('expands $(VAR) in command and args with the container env', () => {
    const config = build({
      env: [
        {name: 'PORT', value: '8080'},
        {name: 'POD', valueFrom: {fieldRef: {fieldPath: 'metadata.name'}}},
      ],
      command: ['/bin/app', '--name=$(POD)'],
      args: ['--port', '$(PORT)', '$(UNDEFINED)', '$$(PORT)'],
    })
    expect(config.command).toEqual(['/bin/app', '--name=web-node1'])
    expect(config.args).toEqual(['--port', '8080', '$(UNDEFINED)', '$(PORT)'])
    expect(config.envs).toEqual([
      {key: 'PORT', value: '8080'},
      {key: 'POD', value: 'web-node1'},
    ])
  })

  it('gives empty command and args when the spec has none (the image decides)', () => {
    const config = build({})
    expect(config.command).toEqual([])
    expect(config.args).toEqual([])
  })

  describe('mounts', () => {
    const emptyDir = `${ROOT}/pods/${UID}/volumes/kubernetes.io~empty-dir/cache`
    // Volumes kube-node makes may be relabelled for SELinux; a host path (/srv/data) never is.
    const mount = (containerPath: string, hostPath: string, more: Partial<Mount> = {}): Mount => ({
      containerPath,
      hostPath,
      readonly: false,
      selinuxRelabel: !hostPath.startsWith('/srv/data'),
      propagation: 'PROPAGATION_PRIVATE',
      ...more,
    })

    it.each<[string, NonNullable<Container['volumeMounts']>, Mount[]]>([
      ['hostPath', [{name: 'data', mountPath: '/data'}], [mount('/data', '/srv/data')]],
      ['emptyDir', [{name: 'cache', mountPath: '/cache'}], [mount('/cache', emptyDir)]],
      ['hostPath with subPath', [{name: 'data', mountPath: '/d', subPath: 'a/b'}], [mount('/d', '/srv/data/a/b')]],
      ['emptyDir with subPath', [{name: 'cache', mountPath: '/c', subPath: 'x'}], [mount('/c', `${emptyDir}/x`)]],
      ['readOnly', [{name: 'data', mountPath: '/data', readOnly: true}], [mount('/data', '/srv/data', {readonly: true})]],
      [
        'propagation',
        [
          {name: 'data', mountPath: '/a', mountPropagation: 'None'},
          {name: 'data', mountPath: '/b', mountPropagation: 'HostToContainer'},
          {name: 'data', mountPath: '/c', mountPropagation: 'Bidirectional'},
        ],
        [
          mount('/a', '/srv/data'),
          mount('/b', '/srv/data', {propagation: 'PROPAGATION_HOST_TO_CONTAINER'}),
          mount('/c', '/srv/data', {propagation: 'PROPAGATION_BIDIRECTIONAL'}),
        ],
      ],
      ['configMap volumes are always read-only', [{name: 'conf', mountPath: '/etc/c'}], [mount('/etc/c', `${ROOT}/pods/${UID}/volumes/kubernetes.io~configmap/conf`, {readonly: true})]],
      ['secret volumes are always read-only', [{name: 'sec', mountPath: '/s', readOnly: false}], [mount('/s', `${ROOT}/pods/${UID}/volumes/kubernetes.io~secret/sec`, {readonly: true})]],
      ['emptyDir in memory', [{name: 'mem', mountPath: '/m'}], [mount('/m', `${ROOT}/pods/${UID}/volumes/kubernetes.io~empty-dir/mem`)]],
      ['unsupported volume kinds and unknown volumes are left out', [{name: 'pvc', mountPath: '/p'}, {name: 'nope', mountPath: '/x'}], []],
    ])('%s', (_name, volumeMounts, expected) => {
      expect(build({volumeMounts}).mounts).toEqual(expected)
    })

    it.each(['../etc', 'a/../../b', '/abs'])('rejects subPath %j that leaves the volume', (subPath) => {
      expect(() => build({volumeMounts: [{name: 'data', mountPath: '/d', subPath}]})).toThrow(ConfigError)
    })
  })

  describe('resources', () => {
    const none: LinuxContainerResources = {cpuPeriod: 0, cpuQuota: 0, cpuShares: 2, memoryLimitInBytes: 0, oomScoreAdj: 0, cpusetCpus: '', cpusetMems: ''}
    it.each<[string, Container['resources'], Partial<LinuxContainerResources>]>([
      ['none: minimum shares', undefined, {}],
      ['requests.cpu 250m', {requests: {cpu: '250m'}}, {cpuShares: 256}],
      ['requests.cpu 1', {requests: {cpu: '1'}}, {cpuShares: 1024}],
      ['requests.cpu 1m: at least 2 shares', {requests: {cpu: '1m'}}, {cpuShares: 2}],
      ['limits.cpu 500m: quota, period, shares from the limit', {limits: {cpu: '500m'}}, {cpuShares: 512, cpuQuota: 50000, cpuPeriod: 100000}],
      ['limits.cpu 1m: quota at least 1000', {limits: {cpu: '1m'}}, {cpuShares: 2, cpuQuota: 1000, cpuPeriod: 100000}],
      ['limits.cpu 2 with requests.cpu 1', {requests: {cpu: '1'}, limits: {cpu: '2'}}, {cpuShares: 1024, cpuQuota: 200000, cpuPeriod: 100000}],
      ['limits.memory 128Mi', {limits: {memory: '128Mi'}}, {memoryLimitInBytes: 134217728}],
      ['limits.memory 1G', {limits: {memory: '1G'}}, {memoryLimitInBytes: 1000000000}],
    ])('%s', (_name, resources, expected) => {
      expect(build(resources ? {resources} : {}).linux?.resources).toEqual({...none, ...expected})
    })
  })

  describe('security context', () => {
    it('defaults: RuntimeDefault seccomp, pod namespaces, default masked and read-only paths', () => {
      expect(build({}).linux?.securityContext).toEqual({
        privileged: false,
        namespaceOptions: {network: 'POD', ipc: 'POD', pid: 'CONTAINER'},
        seccomp: {profileType: 'RuntimeDefault', localhostRef: ''},
        maskedPaths: [...DEFAULT_MASKED_PATHS],
        readonlyPaths: [...DEFAULT_READONLY_PATHS],
      })
    })

    it('maps container settings, which override the pod’s', () => {
      const sc = build(
        {
          securityContext: {
            capabilities: {add: ['NET_ADMIN'], drop: ['ALL']},
            runAsUser: 1001,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            seccompProfile: {type: 'Localhost', localhostProfile: 'profiles/app.json'},
          },
        },
        (p) => (p.spec.securityContext = {runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, seccompProfile: {type: 'Unconfined'}}),
      ).linux?.securityContext
      expect(sc).toMatchObject({
        capabilities: {addCapabilities: ['NET_ADMIN'], dropCapabilities: ['ALL']},
        runAsUser: {value: 1001},
        runAsGroup: {value: 3000},
        supplementalGroups: [2000],
        readonlyRootfs: true,
        noNewPrivs: true,
        seccomp: {profileType: 'Localhost', localhostRef: `${ROOT}/seccomp/profiles/app.json`},
      })
    })

    it.each<[string, boolean | undefined, string]>([
      ["kube-node's default: RuntimeDefault", undefined, 'RuntimeDefault'],
      ['seccompDefault: true, as the kubelet with it', true, 'RuntimeDefault'],
      ["seccompDefault: false, the kubelet's default: Unconfined", false, 'Unconfined'],
    ])('a container without a profile under %s', (_name, seccompDefault, profileType) => {
      const {sp, ctx} = setup(makeContainer())
      const config = buildContainerConfig(sp.pod, sp.pod.spec.containers[0]!, {...ctx, seccompDefault})
      expect(config.linux?.securityContext?.seccomp).toEqual({profileType, localhostRef: ''})
    })

    it('takes the pod seccomp profile when the container has none', () => {
      const sc = build({}, (p) => (p.spec.securityContext = {seccompProfile: {type: 'Unconfined'}})).linux?.securityContext
      expect(sc?.seccomp).toEqual({profileType: 'Unconfined', localhostRef: ''})
    })

    it('does not mask paths for privileged containers or an Unmasked procMount', () => {
      for (const securityContext of [{privileged: true}, {procMount: 'Unmasked'}]) {
        const sc = build({securityContext}).linux?.securityContext
        expect(sc?.maskedPaths).toBeUndefined()
        expect(sc?.readonlyPaths).toBeUndefined()
      }
    })

    it('shares the pod namespaces chosen for the sandbox', () => {
      const sc = build({}, (p) => Object.assign(p.spec, {hostNetwork: true, shareProcessNamespace: true})).linux?.securityContext
      expect(sc?.namespaceOptions).toEqual({network: 'NODE', ipc: 'POD', pid: 'POD'})
    })

    it('does not set noNewPrivs unless allowPrivilegeEscalation is false', () => {
      expect(build({securityContext: {allowPrivilegeEscalation: true}}).linux?.securityContext?.noNewPrivs).toBeUndefined()
    })
  })

  it('labels init containers and sidecars with their type', () => {
    const c = makeContainer({name: 'init'})
    const {sp, ctx} = setup(c)
    expect(buildContainerConfig(sp.pod, c, {...ctx, containerType: 'sidecar'}).labels['kube-node.io/container-type']).toBe('sidecar')
  })

  describe('environment from the node and the manifests', () => {
    const objects = createObjectStore([{metadata: {name: 'app', namespace: 'default'}, data: {MODE: 'prod'}}], [])

    it('resolves envFrom, hostIP and resources from the context and expands them in args', () => {
      const c = makeContainer({
        envFrom: [{configMapRef: {name: 'app'}, prefix: 'APP_'}],
        env: [
          {name: 'NODE', valueFrom: {fieldRef: {fieldPath: 'status.hostIP'}}},
          {name: 'MEM', valueFrom: {resourceFieldRef: {resource: 'limits.memory', divisor: '1Mi'}}},
        ],
        args: ['--mode=$(APP_MODE)', '--node=$(NODE)', '--mem=$(MEM)'],
      })
      const {ctx, sp} = setup(makeContainer(), (p) => (p.spec.containers = [c]))
      const config = buildContainerConfig(sp.pod, c, {...ctx, objects, hostIP: '192.168.1.5', nodeCapacity: {cpuMilli: 2000, memoryBytes: 512 * 1024 * 1024}})
      expect(config.envs).toEqual([
        {key: 'APP_MODE', value: 'prod'},
        {key: 'NODE', value: '192.168.1.5'},
        {key: 'MEM', value: '512'},
      ])
      expect(config.args).toEqual(['--mode=prod', '--node=192.168.1.5', '--mem=512'])
    })

    it('throws a ConfigError for a required reference that is missing', () => {
      const c = makeContainer({env: [{name: 'X', valueFrom: {configMapKeyRef: {name: 'app-config', key: 'x'}}}]})
      const {ctx, sp} = setup(makeContainer())
      expect(() => buildContainerConfig(sp.pod, c, {...ctx, objects})).toThrow(ConfigError)
      expect(() => buildContainerConfig(sp.pod, c, {...ctx, objects})).toThrow('configmap "app-config" not found')
    })

    it('defaults hostIP to empty', () => {
      const c = makeContainer({env: [{name: 'NODE', valueFrom: {fieldRef: {fieldPath: 'status.hostIP'}}}]})
      expect(setup(c).config.envs).toEqual([{key: 'NODE', value: ''}])
    })
  })
})
