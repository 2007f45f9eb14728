// The labels of kubernetes_build_info, filled with kube-node's own build: dashboards that group
// nodes by version find kube-node under its own version, never under a Kubernetes one it is not.
// The Go-specific labels say what runs instead (go_version: the Node.js version, compiler: node).
import {Gauge, type Registry} from 'prom-client'

export const BUILD_INFO_LABELS = ['major', 'minor', 'git_version', 'git_commit', 'git_tree_state', 'build_date', 'go_version', 'compiler', 'platform'] as const
export type BuildInfo = Record<(typeof BUILD_INFO_LABELS)[number], string>

/** Go's GOARCH names for Node's process.arch values, as the kubelet's platform label spells them. */
const GOARCH: Readonly<Record<string, string>> = {x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64'}

export function buildInfo(version: string, nodeVersion: string, platform: string, arch: string): BuildInfo {
  const m = /^v?(\d+)\.(\d+)/.exec(version)
  return {
    major: m?.[1] ?? '',
    minor: m?.[2] ?? '',
    git_version: version.startsWith('v') ? version : `v${version}`,
    git_commit: '',
    git_tree_state: '',
    build_date: '',
    go_version: nodeVersion,
    compiler: 'node',
    platform: `${platform}/${GOARCH[arch] ?? arch}`,
  }
}

/** kubernetes_build_info for kube-node `version` on this process's Node.js, platform and architecture. */
export function buildInfoMetric(registers: Registry[], version: string): void {
  new Gauge({
    name: 'kubernetes_build_info',
    help: "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
    labelNames: BUILD_INFO_LABELS,
    registers,
  }).set(buildInfo(version, process.version, process.platform, process.arch), 1)
}
