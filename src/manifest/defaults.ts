// Defaulting of a validated Pod: the v1 API defaults the kubelet's decoder applies
// (pkg/apis/core/v1/defaults.go) and the static-pod identity (KUBELET.md §2), except that the
// UID comes from node, namespace and name instead of the content (ARCHITECTURE.md, "Identity and
// updates"). `kubernetes.io/config.seen` needs a clock, so the caller stamps it. Pure: the input
// is never changed.
import type {Toleration} from '../api/types.js'
import type {Container, ObjectMeta, Pod, PodSource, Probe, StaticPod, Volume} from '../api/types.js'
import {hashOf, staticPodUid} from '../util/hash.js'
import {defaultPullPolicy} from './image-ref.js'
import {volumeKind} from '../volumes/registry.js'
import {presentSources} from './volume-sources.js'
import {startAfterOf} from './start-after.js'
import {withoutNulls} from './without-nulls.js'
import {withPodFacts} from '../kuberuntime/pod-facts.js'

export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash'
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source'
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen'

export interface DefaultsOptions {
  nodeName: string
  source: PodSource
}

/**
 * `pod` must have passed `validatePod`. The UID is kept when the manifest sets one (as the
 * kubelet does); otherwise it is `staticPodUid(node, namespace, name)`, so it survives edits.
 */
export function applyDefaults(pod: unknown, opts: DefaultsOptions): StaticPod {
  const input = withoutNulls(pod) as Pod
  const manifestName = input.metadata?.name ?? ''
  const namespace = input.metadata?.namespace || 'default'
  const uid = input.metadata?.uid || staticPodUid(opts.nodeName, namespace, manifestName)
  const fromFile = opts.source.kind !== 'http'
  const metadata: ObjectMeta = {
    ...input.metadata,
    name: `${manifestName}-${opts.nodeName.toLowerCase()}`,
    namespace,
    uid,
    annotations: {
      ...input.metadata?.annotations,
      // The kubelet's config hash changes with the manifest's content (kubeadm and other tools wait
      // for it to know an edit was picked up); unlike the kubelet's, the UID does not follow it.
      [CONFIG_HASH_ANNOTATION]: configHash(input, opts.nodeName),
      // The kubelet knows file, http and api; standard input is a file given another way.
      [CONFIG_SOURCE_ANNOTATION]: fromFile ? 'file' : 'http',
    },
  }
  // A manifest's status means nothing: the status is computed from the runtime.
  const out: Pod = {...input, metadata, status: {phase: 'Pending'}}

  const spec = (out.spec ??= {containers: []})
  spec.nodeName = opts.nodeName
  spec.restartPolicy ??= 'Always'
  spec.dnsPolicy ??= 'ClusterFirst'
  spec.terminationGracePeriodSeconds ??= 30
  spec.securityContext ??= {}
  spec.schedulerName ??= 'default-scheduler'
  spec.enableServiceLinks ??= true
  if (fromFile) spec.tolerations = withNoExecuteToleration(spec.tolerations ?? [])
  const hostNetwork = spec.hostNetwork === true
  for (const c of spec.initContainers ?? []) defaultContainer(c, hostNetwork)
  for (const c of spec.containers) defaultContainer(c, hostNetwork)
  for (const v of spec.volumes ?? []) defaultVolume(v)
  const startAfter = startAfterOf(out.metadata ?? {})
  return withPodFacts({
    pod: out as StaticPod['pod'],
    source: opts.source,
    manifestName,
    ...(startAfter.length > 0 ? {startAfter} : {}),
  })
}

/** A hash of the manifest as written and the node it is for: 32 hex digits, like the UID. */
export function configHash(pod: Pod, nodeName: string): string {
  return hashOf({nodeName, pod}, 32)
}

/** File pods tolerate every NoExecute taint, so that the node never evicts them. */
function withNoExecuteToleration(tolerations: Toleration[]): Toleration[] {
  const covered = tolerations.some(
    (t) => t.operator === 'Exists' && !t.key && (t.effect === 'NoExecute' || !t.effect),
  )
  return covered ? tolerations : [...tolerations, {operator: 'Exists', effect: 'NoExecute'}]
}

function defaultContainer(c: Container, hostNetwork: boolean): void {
  if (c.image !== undefined) c.imagePullPolicy ??= defaultPullPolicy(c.image)
  c.terminationMessagePath ??= '/dev/termination-log'
  c.terminationMessagePolicy ??= 'File'
  for (const p of c.ports ?? []) {
    p.protocol ??= 'TCP'
    if (hostNetwork && !p.hostPort) p.hostPort = p.containerPort
  }
  for (const e of c.env ?? []) {
    if (e.valueFrom?.fieldRef) e.valueFrom.fieldRef.apiVersion ??= 'v1'
  }
  // Requests default to limits for every resource that has a limit but no request.
  const limits = c.resources?.limits
  if (c.resources && limits && Object.keys(limits).length > 0) {
    c.resources.requests = {...limits, ...c.resources.requests}
  }
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (probe) defaultProbe(probe)
  }
  for (const hook of [c.lifecycle?.postStart, c.lifecycle?.preStop]) {
    if (hook?.httpGet) {
      hook.httpGet.path ??= '/'
      hook.httpGet.scheme ??= 'HTTP'
    }
  }
}

function defaultProbe(p: Probe): void {
  p.timeoutSeconds ??= 1
  p.periodSeconds ??= 10
  p.successThreshold ??= 1
  p.failureThreshold ??= 3
  if (p.httpGet) {
    p.httpGet.path ??= '/'
    p.httpGet.scheme ??= 'HTTP'
  }
}

function defaultVolume(v: Volume): void {
  if (presentSources(v).length === 0) v.emptyDir = {}
  volumeKind(v)?.defaults?.(v)
}
