// What admission knows about this node: name, labels, capacity and --max-pods, read from the
// host once at start (the kubelet's initialNode, kubelet_node_status.go). I/O lives here so that
// sync/admission.ts stays pure.
import os from 'node:os'

export interface NodeInfo {
  /** The node name (`--hostname-override`), matched by `spec.nodeName` and `matchFields`. */
  name: string
  /** `--max-pods` (kubelet default 110): how many pods may be admitted at the same time. */
  maxPods: number
  /** What the node reports; kube-node reserves nothing, so allocatable equals capacity. */
  capacity: {cpuMilli: number; memoryBytes: number; pods: number}
  labels: Record<string, string>
  os: 'linux'
}

export const DEFAULT_MAX_PODS = 110

export const LABEL_HOSTNAME = 'kubernetes.io/hostname'
export const LABEL_OS = 'kubernetes.io/os'
export const LABEL_ARCH = 'kubernetes.io/arch'
// The kubelet still sets the deprecated beta labels too, and old manifests select on them.
const LABEL_OS_BETA = 'beta.kubernetes.io/os'
const LABEL_ARCH_BETA = 'beta.kubernetes.io/arch'

/** Node.js's `os.arch()` names → Go's GOARCH, which `kubernetes.io/arch` uses. */
export function goArch(nodeArch: string, endianness: 'BE' | 'LE' = 'LE'): string {
  switch (nodeArch) {
    case 'x64':
      return 'amd64'
    case 'ia32':
      return '386'
    case 'ppc64':
      return endianness === 'LE' ? 'ppc64le' : 'ppc64'
    case 'mipsel':
      return 'mipsle'
    default:
      // arm, arm64, s390x, riscv64, loong64, mips are spelled the same.
      return nodeArch
  }
}

/**
 * The node as the kubelet would register it: the hostname, os and arch labels (plus `extraLabels`,
 * like `--node-labels`), all CPUs and all memory as capacity, and `maxPods` pods.
 */
/** The node's primary IPv4 address (first non-internal interface), or '' when there is none. */
export function primaryHostIP(): string {
  for (const addrs of Object.values(os.networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) return a.address
  }
  return ''
}

/** The node's CPU capacity in thousandths, as the kubelet counts it: every CPU of the machine. */
export function nodeCpuMilli(): number {
  // os.cpus() can be empty in some sandboxes.
  return (os.cpus().length || os.availableParallelism()) * 1000
}

export function readNodeInfo(nodeName: string, maxPods: number = DEFAULT_MAX_PODS, extraLabels: Record<string, string> = {}): NodeInfo {
  const arch = goArch(os.arch(), os.endianness())
  return {
    name: nodeName,
    maxPods,
    capacity: {
      cpuMilli: nodeCpuMilli(),
      memoryBytes: os.totalmem(),
      pods: maxPods,
    },
    labels: {
      ...extraLabels,
      [LABEL_HOSTNAME]: nodeName.toLowerCase(),
      [LABEL_OS]: 'linux',
      [LABEL_ARCH]: arch,
      [LABEL_OS_BETA]: 'linux',
      [LABEL_ARCH_BETA]: arch,
    },
    os: 'linux',
  }
}
