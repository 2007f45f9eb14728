// The node's facts read from the host once at start (the kubelet's initialNode,
// kubelet_node_status.go): CPUs, memory, architecture, the primary address.
import os from 'node:os'
import {DEFAULT_MAX_PODS, goArch, LABEL_ARCH, LABEL_ARCH_BETA, LABEL_HOSTNAME, LABEL_OS, LABEL_OS_BETA, type NodeInfo} from '../util/node-info.js'

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

/**
 * The node as the kubelet would register it: the hostname, os and arch labels (plus `extraLabels`,
 * like `--node-labels`), all CPUs and all memory as capacity, and `maxPods` pods.
 */
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
