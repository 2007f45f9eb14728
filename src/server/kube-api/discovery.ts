// Discovery: what kubectl reads first to learn which resources exist and how to call them. Only
// the legacy (unaggregated) form is served; kubectl asks for the aggregated one first and reads a
// plain `application/json` answer as the legacy form. Pure.

/** The Kubernetes minor version kube-node speaks (its v1 types come from this release). */
export const KUBE_MAJOR = '1'
export const KUBE_MINOR = '36'

/** `platform` as Go spells it: `linux/amd64`; `minor` as served-version.ts chooses it. */
export function versionInfo(kubeNodeVersion: string, platform: string, minor: string = KUBE_MINOR): Record<string, string> {
  return {
    major: KUBE_MAJOR,
    minor,
    // Semantic-version build metadata allows [0-9A-Za-z.-] only; kubectl fails on anything else.
    gitVersion: `v${KUBE_MAJOR}.${minor}.0+kube-node-${kubeNodeVersion.replace(/[^0-9A-Za-z.-]/g, '-').replace(/^\.+|\.+$/g, '').replace(/\.{2,}/g, '.')}`,
    gitCommit: '',
    gitTreeState: '',
    buildDate: '',
    goVersion: '',
    compiler: 'kube-node',
    platform,
  }
}

export function apiVersions(serverAddress: string): unknown {
  return {kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{clientCIDR: '0.0.0.0/0', serverAddress}]}
}

export function apiGroupList(): unknown {
  return {kind: 'APIGroupList', apiVersion: 'v1', groups: []}
}

const READ = ['get', 'list', 'watch']

export function apiV1Resources(): unknown {
  return {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      {name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['get', 'list'], shortNames: ['ev']},
      {name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: READ, shortNames: ['po'], categories: ['all']},
      {name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get']},
    ],
  }
}
