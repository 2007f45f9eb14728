import {describe, expect, it} from 'vitest'
import {namedPod} from '../../support/pods.js'
import type {Container, ContainerPort, StaticPod} from '../../../src/api/types.js'
import {admitPod, podRequests, rejectedStatus, type AdmitResult} from '../../../src/decide/admission.js'
import type {NodeInfo} from '../../../src/util/node-info.js'

const NODE: NodeInfo = {
  name: 'node1',
  maxPods: 110,
  capacity: {cpuMilli: 2000, memoryBytes: 4 * 2 ** 30, pods: 110},
  labels: {
    'kubernetes.io/hostname': 'node1',
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    disktype: 'ssd',
    generation: '5',
  },
  os: 'linux',
}

let seq = 0
function pod(name: string, containers: Container[], mutate: (p: StaticPod['pod']) => void = () => {}): StaticPod {
  return namedPod(name, containers, {uid: `uid-${name}-${seq++}`, mutate})
}

function c(name: string, extra: Partial<Container> = {}): Container {
  return {name, image: 'busybox:1.36', ...extra}
}

const req = (cpu: string, memory?: string): Partial<Container> => ({
  resources: {requests: {cpu, ...(memory === undefined ? {} : {memory})}},
})
const port = (hostPort: number, extra: Partial<ContainerPort> = {}): ContainerPort => ({containerPort: 80, hostPort, protocol: 'TCP', ...extra})
const withPorts = (name: string, ...ports: ContainerPort[]): StaticPod => pod(name, [c('app', {ports})])

/** Only the reason (and the message when given) matter to a user. */
function outcome(r: AdmitResult): string {
  return r.admit ? 'admit' : r.reason
}

interface Row {
  name: string
  sp: StaticPod
  admitted?: StaticPod[]
  node?: NodeInfo
  want: string
  message?: string | RegExp
}

const rows: Row[] = [
  {name: 'a plain pod fits an empty node', sp: pod('web', [c('app')]), want: 'admit'},
  {name: 'a pod fits beside others when resources remain', sp: pod('web', [c('app', req('1'))]), admitted: [pod('db', [c('db', req('500m'))])], want: 'admit'},

  // host ports
  {
    name: 'same host port and protocol on 0.0.0.0 conflicts',
    sp: withPorts('web', port(8080)),
    admitted: [withPorts('other', port(8080))],
    want: 'NodePorts',
    message: /^Predicate NodePorts failed: node\(s\) didn't have free ports for the requested pod ports \(TCP 0\.0\.0\.0:8080 conflicts with TCP 0\.0\.0\.0:8080 of pod default\/other-node1\)$/,
  },
  {name: 'same port on a different protocol does not conflict', sp: withPorts('web', port(53, {protocol: 'UDP'})), admitted: [withPorts('dns', port(53))], want: 'admit'},
  {
    name: 'same port on two different specific host IPs does not conflict',
    sp: withPorts('web', port(8080, {hostIP: '10.0.0.1'})),
    admitted: [withPorts('other', port(8080, {hostIP: '10.0.0.2'}))],
    want: 'admit',
  },
  {
    name: 'same port on the same specific host IP conflicts',
    sp: withPorts('web', port(8080, {hostIP: '10.0.0.1'})),
    admitted: [withPorts('other', port(8080, {hostIP: '10.0.0.1'}))],
    want: 'NodePorts',
  },
  {
    name: 'a specific host IP conflicts with 0.0.0.0 already in use',
    sp: withPorts('web', port(8080, {hostIP: '127.0.0.1'})),
    admitted: [withPorts('other', port(8080))],
    want: 'NodePorts',
  },
  {
    name: '0.0.0.0 conflicts with a specific host IP already in use',
    sp: withPorts('web', port(8080)),
    admitted: [withPorts('other', port(8080, {hostIP: '127.0.0.1'}))],
    want: 'NodePorts',
  },
  {name: 'a different port does not conflict', sp: withPorts('web', port(8080)), admitted: [withPorts('other', port(8081))], want: 'admit'},
  {
    name: 'a sidecar init container holds its host port',
    sp: withPorts('web', port(9000)),
    admitted: [pod('other', [c('app')], (p) => (p.spec.initContainers = [c('proxy', {restartPolicy: 'Always', ports: [port(9000)]})]))],
    want: 'NodePorts',
  },
  {
    name: 'a run-to-completion init container holds no host port',
    sp: withPorts('web', port(9000)),
    admitted: [pod('other', [c('app')], (p) => (p.spec.initContainers = [c('setup', {ports: [port(9000)]})]))],
    want: 'admit',
  },

  // max pods
  {
    name: 'the node is full at --max-pods',
    sp: pod('web', [c('app')]),
    admitted: [pod('a', [c('app')]), pod('b', [c('app')])],
    node: {...NODE, maxPods: 2},
    want: 'OutOfpods',
    message: "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2",
  },
  {name: 'one pod below --max-pods fits', sp: pod('web', [c('app')]), admitted: [pod('a', [c('app')])], node: {...NODE, maxPods: 2}, want: 'admit'},

  // cpu and memory
  {
    name: 'cpu request above what is left',
    sp: pod('web', [c('app', req('4'))]),
    admitted: [pod('db', [c('db', req('500m'))])],
    want: 'OutOfcpu',
    message: "Node didn't have enough resource: cpu, requested: 4000, used: 500, capacity: 2000",
  },
  {name: 'cpu request exactly what is left fits', sp: pod('web', [c('app', req('1500m'))]), admitted: [pod('db', [c('db', req('500m'))])], want: 'admit'},
  {
    name: 'memory request above capacity',
    sp: pod('web', [c('app', req('100m', '5Gi'))]),
    want: 'OutOfmemory',
    message: `Node didn't have enough resource: memory, requested: ${5 * 2 ** 30}, used: 0, capacity: ${4 * 2 ** 30}`,
  },
  {
    name: 'regular containers add up',
    sp: pod('web', [c('a', req('1')), c('b', req('1')), c('c', req('100m'))]),
    want: 'OutOfcpu',
  },
  {
    name: 'init containers count by their maximum, not their sum',
    sp: pod('web', [c('app', req('500m'))], (p) => (p.spec.initContainers = [c('i1', req('1500m')), c('i2', req('1500m'))])),
    want: 'admit',
  },
  {
    name: 'one init container above capacity rejects the pod',
    sp: pod('web', [c('app', req('100m'))], (p) => (p.spec.initContainers = [c('i1', req('3'))])),
    want: 'OutOfcpu',
    message: /requested: 3000, used: 0, capacity: 2000/,
  },
  {
    name: 'pod overhead is added to the requests',
    sp: pod('web', [c('app', req('1800m'))], (p) => (p.spec.overhead = {cpu: '250m'})),
    want: 'OutOfcpu',
    message: /requested: 2050,/,
  },
  {
    name: 'a pod without requests fits an over-committed node',
    sp: pod('web', [c('app')]),
    admitted: [pod('db', [c('db', req('3'))])],
    want: 'admit',
  },
  {name: 'a limit without a request counts as the request', sp: pod('web', [c('app', {resources: {limits: {cpu: '3'}}})]), want: 'OutOfcpu'},

  // node selector and affinity
  {name: 'nodeSelector matching the node labels', sp: pod('web', [c('app')], (p) => (p.spec.nodeSelector = {'kubernetes.io/os': 'linux', disktype: 'ssd'})), want: 'admit'},
  {
    name: 'nodeSelector on another arch',
    sp: pod('web', [c('app')], (p) => (p.spec.nodeSelector = {'kubernetes.io/arch': 'arm64'})),
    want: 'NodeAffinity',
    message: /^Predicate NodeAffinity failed: node\(s\) didn't match Pod's node affinity\/selector \(nodeSelector kubernetes.io\/arch=arm64; node has kubernetes.io\/arch=amd64\)$/,
  },
  {name: 'nodeSelector on a label the node lacks', sp: pod('web', [c('app')], (p) => (p.spec.nodeSelector = {gpu: 'true'})), want: 'NodeAffinity'},
  {name: 'nodeSelector for another hostname', sp: pod('web', [c('app')], (p) => (p.spec.nodeSelector = {'kubernetes.io/hostname': 'node2'})), want: 'NodeAffinity'},
  {
    name: 'required affinity: one of the ORed terms matches',
    sp: pod('web', [c('app')], (p) => {
      p.spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {matchExpressions: [{key: 'disktype', operator: 'In', values: ['hdd']}]},
              {matchExpressions: [{key: 'generation', operator: 'Gt', values: ['4']}, {key: 'gpu', operator: 'DoesNotExist'}]},
            ],
          },
        },
      }
    }),
    want: 'admit',
  },
  {
    name: 'required affinity: no term matches',
    sp: pod('web', [c('app')], (p) => {
      p.spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{matchExpressions: [{key: 'disktype', operator: 'NotIn', values: ['ssd']}]}, {matchExpressions: [{key: 'generation', operator: 'Lt', values: ['5']}]}],
          },
        },
      }
    }),
    want: 'NodeAffinity',
  },
  {
    name: 'required affinity on the node name field',
    sp: pod('web', [c('app')], (p) => {
      p.spec.affinity = {
        nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: ['node1']}]}]}},
      }
    }),
    want: 'admit',
  },
  {
    name: 'an empty affinity term matches nothing',
    sp: pod('web', [c('app')], (p) => {
      p.spec.affinity = {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{}]}}}
    }),
    want: 'NodeAffinity',
  },
  {
    name: 'spec.nodeName of another node',
    sp: pod('web', [c('app')], (p) => (p.spec.nodeName = 'node2')),
    want: 'NodeName',
  },

  // operating system
  {name: 'spec.os.name linux', sp: pod('web', [c('app')], (p) => (p.spec.os = {name: 'linux'})), want: 'admit'},
  {
    name: 'spec.os.name windows',
    sp: pod('web', [c('app')], (p) => (p.spec.os = {name: 'windows'})),
    want: 'PodOSNotSupported',
    message: "Failed to admit pod as the OS field doesn't match node OS",
  },
  {
    name: 'a kubernetes.io/os pod label for windows',
    sp: pod('web', [c('app')], (p) => (p.metadata.labels = {'kubernetes.io/os': 'windows'})),
    want: 'PodOSSelectorNodeLabelDoesNotMatch',
  },

  // precedence: the kubelet drops resource reasons of a static (critical) pod when another exists
  {
    name: 'a port conflict wins over missing cpu',
    sp: pod('web', [c('app', {...req('8'), ports: [port(8080)]})]),
    admitted: [withPorts('other', port(8080))],
    want: 'NodePorts',
  },
  {
    name: 'the os check comes before everything else',
    sp: pod('web', [c('app', req('8'))], (p) => {
      p.spec.os = {name: 'windows'}
      p.spec.nodeSelector = {gpu: 'true'}
    }),
    want: 'PodOSNotSupported',
  },
  {
    name: 'too many pods is reported before cpu',
    sp: pod('web', [c('app', req('8'))]),
    admitted: [pod('a', [c('app')])],
    node: {...NODE, maxPods: 1},
    want: 'OutOfpods',
  },
]

describe('admitPod', () => {
  it.each(rows)('$name → $want', ({sp, admitted = [], node = NODE, want, message}) => {
    const r = admitPod(sp, admitted, node)
    expect(outcome(r)).toBe(want)
    if (message !== undefined && !r.admit) {
      if (typeof message === 'string') expect(r.message).toBe(message)
      else expect(r.message).toMatch(message)
    }
  })

  it('ignores the pod itself when it is already in the admitted list', () => {
    const sp = withPorts('web', port(8080))
    expect(admitPod(sp, [sp], {...NODE, maxPods: 1})).toEqual({admit: true})
  })
})

describe('podRequests', () => {
  it('a sidecar adds to the regular containers and to every later init container', () => {
    const sp = pod('web', [c('app', req('200m', '100Mi'))], (p) => {
      p.spec.initContainers = [c('proxy', {restartPolicy: 'Always', ...req('100m', '50Mi')}), c('migrate', req('1', '10Mi'))]
    })
    // regular phase: 200m + 100m sidecar; init phase: 1000m + 100m sidecar.
    expect(podRequests(sp.pod.spec)).toEqual({cpuMilli: 1100, memoryBytes: 150 * 2 ** 20})
  })
})

describe('rejectedStatus', () => {
  it('marks the pod Failed with the admission reason and message', () => {
    const sp = pod('web', [c('app', req('4'))])
    const r = admitPod(sp, [], NODE)
    if (r.admit) throw new Error('expected a rejection')
    expect(rejectedStatus(sp, r)).toEqual({
      phase: 'Failed',
      reason: 'OutOfcpu',
      message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 0, capacity: 2000",
      qosClass: 'Burstable',
    })
  })
})
