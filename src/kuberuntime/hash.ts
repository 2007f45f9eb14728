// Container and sandbox hashes (ARCHITECTURE.md, "Identity and updates"). Unlike the kubelet,
// whose container hash covers only name and image, these cover every field that reaches the
// runtime, so an edited manifest restarts exactly the containers it changed. Fields are picked
// one by one (never by spreading the spec) so that a new API field cannot silently change the
// hash of running containers; changing what is hashed means a new HASH_VERSION. A runtime
// object's hash is judged only by the version that produced it (containerSpecChanged,
// sandboxSpecChanged), so an upgrade never restarts running pods.
import type {Container, Pod, PodFacts} from '../api/types.js'
import type {RuntimeContainer, RuntimeSandbox} from './model.js'
import {hashOf} from '../util/hash.js'
import {InternalError} from '../util/errors.js'
import {CONFIG_HASH_ANNOTATION} from './labels.js'

export const HASH_VERSION = '1'

/** The pod's kubernetes.io/config.hash (manifest/defaults.ts stamps it): which version of its manifest this is. */
export function podConfigHash(pod: Pod): string {
  return pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION] ?? ''
}

function checkVersion(version: string): void {
  if (version !== HASH_VERSION) throw new InternalError(`unknown hash version ${JSON.stringify(version)}`)
}

// Empty values (null, '', [], {}) mean the same to the runtime as absent ones, so `command: []`
// and no command hash alike. Booleans are kept: `allowPrivilegeEscalation: false` is not absent.
function prune(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return undefined
  if (Array.isArray(value)) {
    const items = value.map((v) => prune(v) ?? null)
    return items.length === 0 ? undefined : items
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const p = prune(v)
      if (p !== undefined) out[k] = p
    }
    return Object.keys(out).length === 0 ? undefined : out
  }
  return value
}

/**
 * Lowercase hex hash of every container field the runtime was given or that shapes the
 * container's life, plus the definitions of the volumes it mounts. Probes are excluded (a probe
 * change applies without a restart), and so is imagePullPolicy (it does not change the container).
 */
export function containerHash(pod: Pod, container: Container, version: string = HASH_VERSION): string {
  checkVersion(version)
  const mounted = [...new Set((container.volumeMounts ?? []).map((m) => m.name))].sort()
  const volumes = pod.spec?.volumes ?? []
  return hashOf(
    prune({
      name: container.name,
      image: container.image,
      command: container.command,
      args: container.args,
      workingDir: container.workingDir,
      env: container.env,
      envFrom: container.envFrom,
      ports: container.ports,
      volumeMounts: container.volumeMounts,
      volumeDevices: container.volumeDevices,
      resources: container.resources,
      securityContext: container.securityContext,
      lifecycle: container.lifecycle,
      restartPolicy: container.restartPolicy,
      tty: container.tty === true,
      stdin: container.stdin === true,
      stdinOnce: container.stdinOnce === true,
      terminationMessagePath: container.terminationMessagePath,
      terminationMessagePolicy: container.terminationMessagePolicy,
      volumes: mounted.map((name) => volumes.find((v) => v.name === name) ?? {name, missing: true}),
    }) ?? {},
  )
}

/** The host ports the sandbox publishes: the ports with a hostPort of the regular containers
 * (the kubelet ignores init containers' ports). Shared with sandbox-config.ts. */
export function hostPortsOf(pod: Pod): {containerPort: number; hostPort: number; protocol: string; hostIP: string}[] {
  const out = []
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue
      out.push({containerPort: p.containerPort, hostPort: p.hostPort, protocol: p.protocol ?? 'TCP', hostIP: p.hostIP ?? ''})
    }
  }
  return out
}

/** Whether any container of the pod is privileged: the sandbox must then be privileged too. */
export function anyPrivileged(pod: Pod): boolean {
  const spec = pod.spec
  const all = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]
  return all.some((c) => c.securityContext?.privileged === true)
}

/**
 * Hash of the pod-level fields that shape the sandbox. It also covers "is any container
 * privileged", because containerd refuses a privileged container in an unprivileged sandbox.
 */
export function sandboxHash(pod: Pod, version: string = HASH_VERSION): string {
  checkVersion(version)
  const spec = pod.spec
  return hashOf(
    prune({
      hostNetwork: spec?.hostNetwork === true,
      hostPID: spec?.hostPID === true,
      hostIPC: spec?.hostIPC === true,
      shareProcessNamespace: spec?.shareProcessNamespace === true,
      hostname: spec?.hostname,
      subdomain: spec?.subdomain,
      setHostnameAsFQDN: spec?.setHostnameAsFQDN === true,
      dnsPolicy: spec?.dnsPolicy ?? 'ClusterFirst',
      dnsConfig: spec?.dnsConfig,
      hostAliases: spec?.hostAliases,
      hostPorts: hostPortsOf(pod),
      securityContext: spec?.securityContext,
      runtimeClassName: spec?.runtimeClassName,
      privileged: anyPrivileged(pod),
    }) ?? {},
  )
}

export interface HashComparison {
  changed: boolean
  /** The hash the current spec has under the runtime object's version ('' when not compared). */
  want: string
}

const UNCHANGED: HashComparison = {changed: false, want: ''}

// Only hashes of the current version are judged, against the pod's facts (pod-facts.ts: its
// hashes, worked out once with the pod). A hash of a version these rules do not know, or none (an
// adopted object), cannot be judged: the object is kept. A new HASH_VERSION must add the hashes
// of the version it replaces to the facts, so that an upgrade restarts nothing.
function judge(have: string | undefined, version: string | undefined, want: string | undefined): HashComparison {
  if (have === undefined || have === '' || want === undefined || (version ?? HASH_VERSION) !== HASH_VERSION) return UNCHANGED
  return {changed: want !== have, want}
}

/** The runtime container against the definition of the pod's container `name`. */
export function containerSpecChanged(facts: PodFacts, name: string, rc: RuntimeContainer): HashComparison {
  return judge(rc.hash, rc.hashVersion, facts.containers.get(name)?.hash)
}

export function sandboxSpecChanged(facts: PodFacts, s: RuntimeSandbox): HashComparison {
  return judge(s.hash, s.hashVersion, facts.sandboxHash)
}
