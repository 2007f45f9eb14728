import {describe, expect, it} from 'vitest'
import {validatePod} from '../../../src/manifest/validate.js'
import {basePod, podWith, withPath} from './pod-builder.js'

const where = {location: 'pods/web.yaml', document: 0}
const fields = (pod: unknown, nodeName?: string) =>
  validatePod(pod, where, nodeName === undefined ? {} : {nodeName}).map((i) => ({field: i.field, message: i.message}))

describe('validatePod', () => {
  it('accepts the base pod', () => {
    expect(validatePod(basePod(), where)).toEqual([])
  })

  // One rule per row: [what, path, value, field, message].
  it.each<[string, string, unknown, string, string]>([
    ['metadata missing', 'metadata', undefined, 'metadata.name', 'must be set'],
    ['name missing', 'metadata.name', undefined, 'metadata.name', 'must be set'],
    ['name empty', 'metadata.name', '', 'metadata.name', 'must be set'],
    ['name a number', 'metadata.name', 42, 'metadata.name', 'must be a string, got integer'],
    ['name upper case', 'metadata.name', 'Web', 'metadata.name', '"Web" must be a DNS-1123 subdomain: lower-case letters, digits, \'-\' and \'.\', starting and ending with a letter or digit'],
    ['name too long', 'metadata.name', 'a'.repeat(254), 'metadata.name', 'must be no more than 253 characters, got 254'],
    ['namespace not a label', 'metadata.namespace', 'kube.system', 'metadata.namespace', '"kube.system" must be a DNS-1123 label: lower-case letters, digits and \'-\', starting and ending with a letter or digit'],
    ['labels a list', 'metadata.labels', ['a'], 'metadata.labels', 'must be an object, got list'],
    ['label value a number', 'metadata.labels.version', 2, 'metadata.labels.version', 'must be a string (quote it in YAML), got number'],
    ['label value too long', 'metadata.labels.app', 'x'.repeat(64), 'metadata.labels.app', 'must be no more than 63 characters, got 64'],
    ['label value bad syntax', 'metadata.labels.app', 'a b', 'metadata.labels.app', '"a b" must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit'],
    ['label key bad', 'metadata.labels', {'-bad': 'x'}, 'metadata.labels["-bad"]', 'key "-bad" must consist of letters, digits, \'-\', \'_\' or \'.\', starting and ending with a letter or digit'],
    ['annotation value a bool', 'metadata.annotations', {'example.com/on': true}, 'metadata.annotations["example.com/on"]', 'must be a string (quote it in YAML), got boolean'],
    ['spec missing', 'spec', undefined, 'spec', 'must be set'],
    ['spec a string', 'spec', 'x', 'spec', 'must be an object, got string'],
    ['containers empty', 'spec.containers', [], 'spec.containers', 'must have at least one container'],
    ['containers an object', 'spec.containers', {name: 'x'}, 'spec.containers', 'must be a list, got object'],
    ['container a string', 'spec.containers.1', 'busybox', 'spec.containers[1]', 'must be an object, got "busybox"'],
    ['container name missing', 'spec.containers.1.name', undefined, 'spec.containers[1].name', 'must be set'],
    ['container name not a label', 'spec.containers.1.name', 'side_car', 'spec.containers[1].name', '"side_car" must be a DNS-1123 label: lower-case letters, digits and \'-\', starting and ending with a letter or digit'],
    ['container name duplicate', 'spec.containers.1.name', 'nginx', 'spec.containers[1].name', 'must be unique: "nginx" is also the name of spec.containers[0]'],
    ['init container name duplicate', 'spec.initContainers', [{name: 'sidecar', image: 'busybox'}], 'spec.containers[1].name', 'must be unique: "sidecar" is also the name of spec.initContainers[0]'],
    ['image missing', 'spec.containers.0.image', undefined, 'spec.containers[0].image', 'must be set'],
    ['image empty', 'spec.containers.0.image', '', 'spec.containers[0].image', 'must be set'],
    ['image with a space', 'spec.containers.0.image', 'nginx latest', 'spec.containers[0].image', '"nginx latest" is not a valid image reference'],
    ['image upper case', 'spec.containers.0.image', 'Nginx:1.27', 'spec.containers[0].image', '"Nginx:1.27" is not a valid image reference'],
    ['image a number', 'spec.containers.0.image', 3, 'spec.containers[0].image', 'must be a string, got integer'],
    ['imagePullPolicy lower case', 'spec.containers.0.imagePullPolicy', 'always', 'spec.containers[0].imagePullPolicy', 'must be one of Always, IfNotPresent, Never, got "always"'],
    ['containerPort too big', 'spec.containers.0.ports.0.containerPort', 70000, 'spec.containers[0].ports[0].containerPort', 'must be between 1 and 65535, got 70000'],
    ['containerPort zero', 'spec.containers.0.ports.0.containerPort', 0, 'spec.containers[0].ports[0].containerPort', 'must be between 1 and 65535, got 0'],
    ['containerPort a string', 'spec.containers.0.ports.0.containerPort', '80', 'spec.containers[0].ports[0].containerPort', 'must be an integer, got "80"'],
    ['containerPort a fraction', 'spec.containers.0.ports.0.containerPort', 80.5, 'spec.containers[0].ports[0].containerPort', 'must be an integer, got 80.5'],
    ['containerPort missing', 'spec.containers.0.ports.0.containerPort', undefined, 'spec.containers[0].ports[0].containerPort', 'must be set'],
    ['hostPort negative', 'spec.containers.0.ports.0.hostPort', -1, 'spec.containers[0].ports[0].hostPort', 'must be between 0 and 65535, got -1'],
    ['protocol unknown', 'spec.containers.0.ports.0.protocol', 'HTTP', 'spec.containers[0].ports[0].protocol', 'must be one of TCP, UDP, SCTP, got "HTTP"'],
    ['port name too long', 'spec.containers.0.ports.0.name', 'a-very-long-port-name', 'spec.containers[0].ports[0].name', 'must be no more than 15 characters, got 21'],
    ['port name digits only', 'spec.containers.0.ports.0.name', '8080', 'spec.containers[0].ports[0].name', '"8080" must be a port name: lower-case letters, digits and \'-\', at least one letter, no "--"'],
    ['port name duplicate', 'spec.containers.0.ports.1', {name: 'http', containerPort: 81}, 'spec.containers[0].ports[1].name', 'must be unique within the container: "http" is used twice'],
    ['ports an object', 'spec.containers.0.ports', {containerPort: 80}, 'spec.containers[0].ports', 'must be a list, got object'],
    ['restartPolicy unknown', 'spec.restartPolicy', 'Sometimes', 'spec.restartPolicy', 'must be one of Always, OnFailure, Never, got "Sometimes"'],
    ['fsGroupChangePolicy unknown', 'spec.securityContext', {fsGroup: 2000, fsGroupChangePolicy: 'Sometimes'}, 'spec.securityContext.fsGroupChangePolicy', 'must be one of OnRootMismatch, Always, got "Sometimes"'],
    ['init container restartPolicy unknown', 'spec.initContainers', [{name: 'init', image: 'busybox', restartPolicy: 'Sometimes'}], 'spec.initContainers[0].restartPolicy', 'must be one of Always, OnFailure, Never, got "Sometimes"'],
    ['regular container restartPolicy unknown', 'spec.containers.1.restartPolicy', 'Sometimes', 'spec.containers[1].restartPolicy', 'must be one of Always, OnFailure, Never, got "Sometimes"'],
    ['init container probe without sidecar', 'spec.initContainers', [{name: 'init', image: 'busybox', readinessProbe: {exec: {command: ['true']}}}], 'spec.initContainers[0].readinessProbe', 'may only be set on init containers with restartPolicy Always'],
    ['volumeMount of an undefined volume', 'spec.containers.0.volumeMounts.0.name', 'cache', 'spec.containers[0].volumeMounts[0].name', 'volume "cache" is not defined in spec.volumes'],
    ['mountPath relative', 'spec.containers.0.volumeMounts.0.mountPath', 'data', 'spec.containers[0].volumeMounts[0].mountPath', 'must be an absolute path, got "data"'],
    ['mountPath duplicate', 'spec.containers.0.volumeMounts.1', {name: 'data', mountPath: '/data/'}, 'spec.containers[0].volumeMounts[1].mountPath', 'must be unique: "/data/" is also mounted by volumeMounts[0]'],
    ['subPath escaping', 'spec.containers.0.volumeMounts.0.subPath', '../etc', 'spec.containers[0].volumeMounts[0].subPath', 'must be a relative path without "..", got "../etc"'],
    ['volume name not a label', 'spec.volumes.1', {name: 'Cache', emptyDir: {}}, 'spec.volumes[1].name', '"Cache" must be a DNS-1123 label: lower-case letters, digits and \'-\', starting and ending with a letter or digit'],
    ['volume name duplicate', 'spec.volumes.1', {name: 'data', emptyDir: {}}, 'spec.volumes[1].name', 'must be unique: volume "data" is defined twice'],
    ['volume with two sources', 'spec.volumes.0.hostPath', {path: '/srv'}, 'spec.volumes[0]', 'must have exactly one volume source, got 2 (emptyDir, hostPath)'],
    ['hostPath relative', 'spec.volumes.0', {name: 'data', hostPath: {path: 'srv'}}, 'spec.volumes[0].hostPath.path', 'must be an absolute path, got "srv"'],
    ['hostPath type unknown', 'spec.volumes.0', {name: 'data', hostPath: {path: '/srv', type: 'Dir'}}, 'spec.volumes[0].hostPath.type', 'must be one of , DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice, BlockDevice, got "Dir"'],
    ['PVC volume', 'spec.volumes.0', {name: 'data', persistentVolumeClaim: {claimName: 'x'}}, 'spec.volumes[0].persistentVolumeClaim', 'is not supported: a claim is bound to a volume by the API server and its volume controllers, which a standalone node does not have; use hostPath or emptyDir'],
    ['NFS volume (an in-tree storage plugin)', 'spec.volumes.0', {name: 'data', nfs: {server: 'nas', path: '/x'}}, 'spec.volumes[0].nfs', 'is not supported: kube-node runs no storage plugins: mount it on the host and use a hostPath volume'],
    ['CSI volume', 'spec.volumes.0', {name: 'data', csi: {driver: 'x'}}, 'spec.volumes[0].csi', 'is not supported: CSI volumes need a CSI driver registered with a kubelet plugin manager, which kube-node does not run; mount it on the host and use a hostPath volume'],
    ['ephemeral volume', 'spec.volumes.0', {name: 'data', ephemeral: {}}, 'spec.volumes[0].ephemeral', 'is not supported: a generic ephemeral volume is a PersistentVolumeClaim the API server creates for the pod, which a standalone node does not have; use emptyDir'],
    ['projected service account token', 'spec.volumes.0', {name: 'data', projected: {sources: [{serviceAccountToken: {path: 't'}}]}}, 'spec.volumes[0].projected.sources[0].serviceAccountToken', 'is not supported: service account tokens are issued by the API server, which a standalone node does not have'],
    ['service account', 'spec.serviceAccountName', 'builder', 'spec.serviceAccountName', 'is not supported: a static pod cannot reference a ServiceAccount (the kubelet refuses it too); only "default" is allowed, got "builder"'],
    ['resource claims', 'spec.resourceClaims', [{name: 'gpu'}], 'spec.resourceClaims', 'is not supported: resource claims are allocated through the API server and DRA drivers, which a standalone node does not have'],
    ['command a string', 'spec.containers.1.command', 'sleep infinity', 'spec.containers[1].command', 'must be a list, got string'],
    ['args with a number', 'spec.containers.1.args', ['--port', 8080], 'spec.containers[1].args[1]', 'must be a string, got integer'],
    ['env name empty', 'spec.containers.1.env', [{name: '', value: 'x'}], 'spec.containers[1].env[0].name', 'must be set'],
    ['env name with =', 'spec.containers.1.env', [{name: 'A=B'}], 'spec.containers[1].env[0].name', '"A=B" must not contain \'=\''],
    ['env value a number', 'spec.containers.1.env', [{name: 'PORT', value: 8080}], 'spec.containers[1].env[0].value', 'must be a string, got integer'],
    ['env value and valueFrom', 'spec.containers.1.env', [{name: 'N', value: 'x', valueFrom: {fieldRef: {fieldPath: 'spec.nodeName'}}}], 'spec.containers[1].env[0].valueFrom', 'may not be set together with value'],
    ['resources bad quantity', 'spec.containers.1.resources', {limits: {memory: '1 GB'}}, 'spec.containers[1].resources.limits.memory', 'must be a quantity such as "500m" or "64Mi", got "1 GB"'],
    ['terminationGracePeriodSeconds negative', 'spec.terminationGracePeriodSeconds', -5, 'spec.terminationGracePeriodSeconds', 'must be non-negative, got -5'],
    ['terminationGracePeriodSeconds a string', 'spec.terminationGracePeriodSeconds', '30s', 'spec.terminationGracePeriodSeconds', 'must be an integer, got "30s"'],
    ['hostNetwork a string', 'spec.hostNetwork', 'yes', 'spec.hostNetwork', 'must be true or false, got "yes"'],
    ['hostPID a number', 'spec.hostPID', 1, 'spec.hostPID', 'must be true or false, got 1'],
    ['hostIPC a list', 'spec.hostIPC', [], 'spec.hostIPC', 'must be true or false, got list'],
    ['dnsPolicy unknown', 'spec.dnsPolicy', 'Cluster', 'spec.dnsPolicy', 'must be one of ClusterFirst, ClusterFirstWithHostNet, Default, None, got "Cluster"'],
    ['dnsPolicy None without dnsConfig', 'spec.dnsPolicy', 'None', 'spec.dnsConfig', 'must be set when dnsPolicy is None'],
    ['probe without handler', 'spec.containers.0.livenessProbe', {periodSeconds: 5}, 'spec.containers[0].livenessProbe', 'must have exactly one handler (exec, httpGet, tcpSocket, grpc)'],
    ['probe with two handlers', 'spec.containers.0.livenessProbe', {exec: {command: ['true']}, tcpSocket: {port: 80}}, 'spec.containers[0].livenessProbe', 'must have exactly one handler, got 2 (exec, tcpSocket)'],
    ['probe on an unknown named port', 'spec.containers.0.readinessProbe', {httpGet: {port: 'https'}}, 'spec.containers[0].readinessProbe.httpGet.port', 'port "https" is not defined in this container\'s ports'],
    ['liveness successThreshold', 'spec.containers.0.livenessProbe', {tcpSocket: {port: 80}, successThreshold: 2}, 'spec.containers[0].livenessProbe.successThreshold', 'must be 1 for liveness and startup probes, got 2'],
    ['probe periodSeconds zero', 'spec.containers.0.readinessProbe', {tcpSocket: {port: 80}, periodSeconds: 0}, 'spec.containers[0].readinessProbe.periodSeconds', 'must be at least 1, got 0'],
    ['preStop without handler', 'spec.containers.0.lifecycle', {preStop: {}}, 'spec.containers[0].lifecycle.preStop', 'must have exactly one handler (exec, httpGet, tcpSocket, sleep)'],
    ['ephemeral containers', 'spec.ephemeralContainers', [], 'spec.ephemeralContainers', 'is not supported: ephemeral containers are added to a running pod through the API server, which a standalone node does not have'],
  ])('%s', (_what, path, value, field, message) => {
    expect(fields(podWith(path, value))).toEqual([{field, message}])
  })

  it('with hostNetwork, requires hostPort to equal containerPort', () => {
    const pod = withPath(podWith('spec.hostNetwork', true), 'spec.containers.0.ports.0.hostPort', 8080)
    expect(fields(pod)).toEqual([
      {field: 'spec.containers[0].ports[0].hostPort', message: 'must equal containerPort (80) with hostNetwork, got 8080'},
    ])
  })

  it('checks the name with its node suffix when the node is known', () => {
    const pod = podWith('metadata.name', 'a'.repeat(250))
    expect(fields(pod)).toEqual([])
    expect(fields(pod, 'node-1')).toEqual([
      {field: 'metadata.name', message: 'must be short enough that "<name>-<node>" has no more than 253 characters, got 257'},
    ])
  })

  it('reports every issue of a document, with location and document', () => {
    let pod = podWith('spec.containers.0.image', '')
    pod = withPath(pod, 'spec.containers.1.name', 'nginx')
    pod = withPath(pod, 'spec.restartPolicy', 'Sometimes')
    const issues = validatePod(pod, {location: 'a.yaml', document: 3})
    expect(issues.map((i) => i.field)).toEqual(['spec.containers[0].image', 'spec.containers[1].name', 'spec.restartPolicy'])
    expect(issues.every((i) => i.location === 'a.yaml' && i.document === 3)).toBe(true)
  })

  it('prefixes fields of List items with items[i]', () => {
    const issues = validatePod(podWith('spec.containers.0.image', ''), {location: 'l.yaml', document: 0, item: 2})
    expect(issues).toEqual([{location: 'l.yaml', document: 0, field: 'items[2].spec.containers[0].image', message: 'must be set'}])
  })

  it('accepts a sidecar init container with probes', () => {
    const pod = podWith('spec.initContainers', [
      {name: 'proxy', image: 'envoy:1', restartPolicy: 'Always', readinessProbe: {tcpSocket: {port: 9901}}},
    ])
    expect(fields(pod)).toEqual([])
  })

  it('accepts dnsPolicy None with a dnsConfig, and a service account named default', () => {
    let pod = podWith('spec.dnsPolicy', 'None')
    pod = withPath(pod, 'spec.dnsConfig', {nameservers: ['1.1.1.1'], searches: ['example.com'], options: [{name: 'ndots', value: '2'}]})
    pod = withPath(pod, 'spec.serviceAccountName', 'default')
    expect(fields(pod)).toEqual([])
  })

  describe('never throws', () => {
    // A small deterministic generator, so a failure can be replayed.
    const rng = (seed: number) => () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const randomValue = (rand: () => number, depth: number): unknown => {
      const r = rand()
      if (depth <= 0 || r < 0.35) {
        const scalars: unknown[] = [null, true, 0, -1, 1.5, 70000, '', 'x', 'Always', '/p', [], {}]
        return scalars[Math.floor(rand() * scalars.length)]
      }
      if (r < 0.6) return Array.from({length: Math.floor(rand() * 3)}, () => randomValue(rand, depth - 1))
      const keys = ['name', 'image', 'containers', 'ports', 'spec', 'metadata', 'volumes', 'env', 'httpGet', 'exec', 'emptyDir', 'items', 'labels']
      const obj: Record<string, unknown> = {}
      for (let i = 0; i < 3; i++) obj[keys[Math.floor(rand() * keys.length)]!] = randomValue(rand, depth - 1)
      return obj
    }
    const paths = [
      'metadata', 'metadata.name', 'metadata.labels', 'spec', 'spec.containers', 'spec.containers.0',
      'spec.containers.0.ports', 'spec.containers.0.ports.0', 'spec.containers.0.env', 'spec.containers.0.volumeMounts',
      'spec.containers.0.livenessProbe', 'spec.containers.0.lifecycle', 'spec.containers.0.resources',
      'spec.containers.0.securityContext', 'spec.volumes', 'spec.volumes.0', 'spec.volumes.0.projected',
      'spec.initContainers', 'spec.dnsConfig', 'spec.securityContext', 'spec.hostAliases',
    ]

    it('on random structures', () => {
      const rand = rng(1)
      for (let i = 0; i < 500; i++) {
        expect(() => validatePod(randomValue(rand, 5), where)).not.toThrow()
      }
    })

    it('on a valid pod with one random field', () => {
      const rand = rng(2)
      for (let i = 0; i < 2000; i++) {
        const path = paths[Math.floor(rand() * paths.length)]!
        const pod = podWith(path, randomValue(rand, 4))
        const issues = validatePod(pod, where)
        expect(issues.every((issue) => typeof issue.message === 'string' && issue.message.length > 0)).toBe(true)
      }
    })
  })
})
