// What admission knows about this node: name, labels, capacity and --max-pods, read from the
// host once at start (the kubelet's initialNode, kubelet_node_status.go) by host/node-info.ts.
// Only the shape and the names live here, so that decide/admission.ts stays pure.

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
export const LABEL_OS_BETA = 'beta.kubernetes.io/os'
export const LABEL_ARCH_BETA = 'beta.kubernetes.io/arch'

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
