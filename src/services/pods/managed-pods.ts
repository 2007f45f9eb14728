// Pods as the runtime has them, paired with their last applied manifest; the building block of
// `get`, `logs` and `down`, which work without a manifest or a running daemon.
import type {Pod, StaticPod} from '../../api/types.js'
import type {RuntimePod} from '../../kuberuntime/model.js'
import {CONFIG_HASH_ANNOTATION} from '../../kuberuntime/labels.js'
import {withPodFacts} from '../../kuberuntime/pod-facts.js'
import {loadPod} from '../../node/pod-store.js'
import type {StatusRecord} from '../../api/status-record.js'
import {readAllStatusRecords} from '../../store/status-store.js'
import {podConfigHash} from '../../kuberuntime/hash.js'
import {recordDescribesRuntime} from '../../status/merge.js'
import type {KubeNode} from '../../node/create-node.js'

export interface ManagedPod {
  /** What the runtime has of the pod (nothing, for a pod that was refused or never got a sandbox). */
  observed: RuntimePod
  /** The last applied manifest, or one rebuilt from the runtime when none was stored. */
  sp: StaticPod
  /** What the process that managed the pod recorded last. */
  record?: StatusRecord | undefined
}

/** A minimal spec from what the runtime knows, for pods whose stored manifest is gone. */
export function podFromRuntime(rp: RuntimePod): StaticPod {
  const newest = new Map<string, {image: string; type: string}>()
  for (const c of rp.containers) if (!newest.has(c.name)) newest.set(c.name, {image: c.image, type: c.type})
  const pick = (t: (type: string) => boolean): NonNullable<Pod['spec']>['containers'] =>
    [...newest.entries()].filter(([, v]) => t(v.type)).map(([name, v]) => ({name, image: v.image}))
  const initContainers = pick((t) => t !== 'regular')
  return withPodFacts({
    manifestName: rp.manifestName,
    source: {kind: 'file', location: '', document: 0},
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: rp.name, namespace: rp.namespace, uid: rp.uid, annotations: {[CONFIG_HASH_ANNOTATION]: rp.uid}},
      spec: {containers: pick((t) => t === 'regular'), ...(initContainers.length ? {initContainers} : {}), restartPolicy: 'Always'},
    },
  })
}

/**
 * A minimal spec from a status record, for a pod that never reached the runtime (refused by
 * admission). The record holds the full name `<manifest name>-<node name>`; node names have dashes
 * of their own (`control-plane-1`), so the node's name is cut off whole.
 */
export function podFromRecord(record: StatusRecord, nodeName: string): StaticPod {
  const containers = (record.status.containerStatuses ?? []).map((c) => ({name: c.name, image: c.image}))
  const suffix = `-${nodeName}`
  const manifestName = record.name.endsWith(suffix) ? record.name.slice(0, -suffix.length) : record.name
  return withPodFacts({
    manifestName,
    source: {kind: 'file', location: '', document: 0},
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: record.name, namespace: record.namespace, uid: record.uid, annotations: {[CONFIG_HASH_ANNOTATION]: record.manifestHash}},
      spec: {containers, restartPolicy: 'Always'},
    },
  })
}

function nothingRuns(sp: StaticPod): RuntimePod {
  const {name, namespace, uid} = sp.pod.metadata
  return {uid, name, namespace, manifestName: sp.manifestName, sandboxes: [], containers: []}
}

/** Which pods a reader needs in full detail (container statuses, sandbox IPs, termination messages). */
export interface DetailOptions {
  /** Only the pod of this name (see matchesName); the others are as the runtime lists them. */
  name?: string | undefined
  /**
   * Not the pods whose record still describes the runtime (status/merge.ts): a reader that shows
   * the merged status shows the record for them, so the runtime's details would go unused.
   */
  unlessRecorded?: boolean | undefined
}

/**
 * This node's pods: those the runtime has, and those only a status record knows (refused by
 * admission, or failed before their sandbox), each with its last record. With `only`, the pods it
 * leaves out are as the runtime lists them, which saves two runtime calls per pod.
 */
export async function listManagedPods(node: KubeNode, only?: DetailOptions): Promise<ManagedPod[]> {
  const {rootDir, nodeName} = node.config
  const stored = readAllStatusRecords(node.fs, rootDir).then(
    async (records) => new Map(await Promise.all(records.map(async (record) => [record.uid, {record, sp: await loadPod(rootDir, record.uid)}] as const))),
  )
  const detailsFor = async (listed: RuntimePod): Promise<boolean> => {
    if (only?.name !== undefined && listed.name !== only.name && listed.manifestName !== only.name) return false
    if (!only?.unlessRecorded) return true
    const s = (await stored).get(listed.uid)
    return !(s?.sp && recordDescribesRuntime(s.record, listed, podConfigHash(s.sp.pod)))
  }
  const [observed, byUid] = await Promise.all([only ? node.cache.readSome(detailsFor) : node.cache.refresh(), stored])
  const inRuntime = await Promise.all(
    observed.map(async (rp) => {
      const s = byUid.get(rp.uid)
      return {observed: rp, sp: s?.sp ?? (await loadPod(rootDir, rp.uid)) ?? podFromRuntime(rp), record: s?.record}
    }),
  )
  const seen = new Set(observed.map((p) => p.uid))
  const recordOnly = [...byUid.values()]
    .filter(({record}) => !seen.has(record.uid) && record.name.endsWith(`-${nodeName}`))
    .map(({record, sp}) => {
      const spec = sp ?? podFromRecord(record, nodeName)
      return {observed: nothingRuns(spec), sp: spec, record}
    })
  return [...inRuntime, ...recordOnly]
}

/**
 * The specs of this node's pods whose sandbox is ready, for admission: a fresh read of the
 * runtime cache (which `run`'s first syncs then share) and the stored manifests.
 */
export async function runningPodSpecs(node: KubeNode): Promise<StaticPod[]> {
  const observed = await node.cache.refresh()
  const uids = observed.filter((p) => p.sandboxes.some((s) => s.state === 'ready')).map((p) => p.uid)
  const specs = await Promise.all(uids.map((uid) => loadPod(node.config.rootDir, uid)))
  return specs.filter((sp): sp is StaticPod => sp !== undefined)
}

/** Matches `web` (manifest name) or `web-<node>` (full static-pod name). */
export function matchesName(p: ManagedPod, name: string): boolean {
  return p.observed.name === name || p.observed.manifestName === name || p.sp.manifestName === name
}
