// How many pods the loop is asked to run and is working on, in the kubelet's terms
// (kubelet_desired_pods, kubelet_active_pods, kubelet_working_pods). Pure: the loop hands over
// what it knows and reads the counts back at each scrape.

/** The pod worker's phase of a pod. */
export type WorkingLifecycle = 'sync' | 'terminating' | 'terminated'
/** desired: a source wants it; orphan: its manifest went away; runtime_only: only the runtime knows it. */
export type WorkingConfig = 'desired' | 'orphan' | 'runtime_only'

export const WORKING_LIFECYCLES: readonly WorkingLifecycle[] = ['sync', 'terminating', 'terminated']
export const WORKING_CONFIGS: readonly WorkingConfig[] = ['desired', 'orphan', 'runtime_only']

export interface DesiredPod {
  uid: string
  /** Refused by admission: never started, so never worked on. */
  rejected: boolean
  /** The phase of the status last computed, if any. */
  phase?: string | undefined
}

export interface TerminatingPod {
  uid: string
  /** The kill came with the pod's spec (its manifest was removed), not from the runtime alone. */
  hadSpec: boolean
}

export interface PodCounts {
  desired: number
  active: number
  /** Every (lifecycle, config) pair, zeros included. */
  working: {lifecycle: WorkingLifecycle; config: WorkingConfig; count: number}[]
}

const finished = (phase: string | undefined): boolean => phase === 'Succeeded' || phase === 'Failed'

export function countPods(desired: readonly DesiredPod[], terminating: readonly TerminatingPod[]): PodCounts {
  const killing = new Set(terminating.map((t) => t.uid))
  const wanted = new Set(desired.map((p) => p.uid))
  const working = new Map<string, number>()
  const add = (lifecycle: WorkingLifecycle, config: WorkingConfig): void => {
    const k = `${lifecycle}/${config}`
    working.set(k, (working.get(k) ?? 0) + 1)
  }
  let active = 0
  for (const p of desired) {
    if (p.rejected) continue
    if (!finished(p.phase)) active++
    add(killing.has(p.uid) ? 'terminating' : finished(p.phase) ? 'terminated' : 'sync', 'desired')
  }
  for (const t of terminating) if (!wanted.has(t.uid)) add('terminating', t.hadSpec ? 'orphan' : 'runtime_only')
  return {
    desired: desired.length,
    active,
    working: WORKING_LIFECYCLES.flatMap((lifecycle) => WORKING_CONFIGS.map((config) => ({lifecycle, config, count: working.get(`${lifecycle}/${config}`) ?? 0}))),
  }
}
