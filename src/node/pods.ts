// Pods as the runtime has them, paired with their last applied manifest; the building block of
// `get`, `logs` and `down`, which work without a manifest or a running daemon.
import type {Pod, StaticPod} from '../api/types.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {readRuntimePods} from '../kuberuntime/runtime-reader.js'
import {CONFIG_HASH_ANNOTATION, managedSelector, POD_UID_LABEL} from '../kuberuntime/labels.js'
import {loadPod} from './pod-store.js'
import type {KubeNode} from './create-node.js'

export interface ManagedPod {
  observed: RuntimePod
  /** The last applied manifest, or one rebuilt from the runtime when none was stored. */
  sp: StaticPod
}

/** A minimal spec from what the runtime knows, for pods whose stored manifest is gone. */
export function podFromRuntime(rp: RuntimePod): StaticPod {
  const newest = new Map<string, {image: string; type: string}>()
  for (const c of rp.containers) if (!newest.has(c.name)) newest.set(c.name, {image: c.image, type: c.type})
  const pick = (t: (type: string) => boolean): NonNullable<Pod['spec']>['containers'] =>
    [...newest.entries()].filter(([, v]) => t(v.type)).map(([name, v]) => ({name, image: v.image}))
  const initContainers = pick((t) => t !== 'regular')
  return {
    manifestName: rp.manifestName,
    source: {kind: 'file', location: '', document: 0},
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: rp.name, namespace: rp.namespace, uid: rp.uid, annotations: {[CONFIG_HASH_ANNOTATION]: rp.uid}},
      spec: {containers: pick((t) => t === 'regular'), ...(initContainers.length ? {initContainers} : {}), restartPolicy: 'Always'},
    },
  }
}

export async function listManagedPods(node: KubeNode): Promise<ManagedPod[]> {
  const observed = await readRuntimePods(node.runtime.runtime, {nodeName: node.config.nodeName})
  return Promise.all(
    observed.map(async (rp) => ({observed: rp, sp: (await loadPod(node.config.rootDir, rp.uid)) ?? podFromRuntime(rp)})),
  )
}

/**
 * The specs of this node's pods whose sandbox is ready, for admission: one ListPodSandbox call
 * and the stored manifests, none of the per-container status calls listManagedPods makes.
 */
export async function runningPodSpecs(node: KubeNode): Promise<StaticPod[]> {
  const sandboxes = await node.runtime.runtime.listPodSandbox({labelSelector: managedSelector(node.config.nodeName), state: 'SANDBOX_READY'})
  const uids = [...new Set(sandboxes.map((s) => s.labels[POD_UID_LABEL]).filter((u): u is string => Boolean(u)))]
  const specs = await Promise.all(uids.map((uid) => loadPod(node.config.rootDir, uid)))
  return specs.filter((sp): sp is StaticPod => sp !== undefined)
}

/** Matches `web` (manifest name) or `web-<node>` (full static-pod name). */
export function matchesName(p: ManagedPod, name: string): boolean {
  return p.observed.name === name || p.observed.manifestName === name || p.sp.manifestName === name
}
