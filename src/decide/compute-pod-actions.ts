// The decision at the heart of every sync: from the desired pod and what the runtime has, the
// list of actions that moves the one towards the other (the kubelet's computePodActions, with
// image pulls as explicit actions and probe results and back-off passed in as data). Pure: no
// I/O, no clock (`now` is given), no state — the same input always gives the same plan.
import type {Container, PodFacts, StaticPod} from '../api/types.js'
import type {ContainerType, RuntimeContainer, RuntimePod} from '../kuberuntime/model.js'
import type {BackOffEntry, BlockedContainer, PodActions, PodAction, PodBackOff, PullImageAction, StartContainerAction} from './actions.js'
import type {PodProbeResults} from '../pod/probe-results.js'
import {decidePull, effectivePullPolicy} from '../images/pull-policy.js'
import {imageRefCandidates} from '../images/reference.js'
import {computeInitActions, type WantedKill, type WantedStart} from './init-actions.js'
import {containerSpecChanged, podConfigHash, type HashComparison} from '../kuberuntime/hash.js'
import {
  containerShouldRestart, initContainerType, isContainerRestartable, named, newestByName, nextRestartCount, podRestartPolicy,
  restartAll, restartVerdictReason, type RestartAll, type RestartPolicy,
} from '../pod/restart-policy.js'
import {decideSandbox} from './sandbox-decision.js'
import {deadlineExceeded} from '../pod/active-deadline.js'

export interface ComputeInput {
  /** The desired, defaulted pod. */
  sp: StaticPod
  /** What the runtime has for this UID (undefined = nothing). */
  runtime: RuntimePod | undefined
  /** Normalized refs (repo tags, repo digests) of the images present in the runtime. */
  images: ReadonlySet<string>
  probes: PodProbeResults
  backOff: PodBackOff
  /**
   * Image pulls backed off after a failure, by image as the spec names it (the kubelet keys them
   * by pod and image, counted from the last failure): they block only a start that must pull.
   */
  pullBackOff?: PodBackOff | undefined
  /** Milliseconds since the epoch. */
  now: number
  /** When the pod's current instance started (its first sync): the activeDeadlineSeconds window. */
  startTime?: number | undefined
}

/** What the decision wants, before back-off and image checks turn it into actions. */
interface Decision {
  sandboxId: string
  killPod?: string
  createSandbox?: {attempt: number; reason: string}
  kills: WantedKill[]
  initStarts: WantedStart[]
  starts: WantedStart[]
  terminal: boolean
}

export function computePodActions(input: ComputeInput): PodActions {
  const {pod, facts} = input.sp
  const containers = input.runtime?.containers ?? []
  // Newest first, as the runtime view is built (kuberuntime/runtime-status.ts).
  const sandboxes = input.runtime?.sandboxes ?? []
  const policy = podRestartPolicy(pod.spec)
  const sandbox = decideSandbox(pod, facts, sandboxes)
  // Something of the pod still runs: a finished pod must still be stopped once.
  const alive = sandboxes.some((s) => s.state === 'ready') || containers.some((c) => c.state === 'running')
  // After an exit that restarts all containers, only the new run's containers count (pod/restart-policy.ts).
  const again = restartAll(pod.spec, containers)
  const seen = seenOf(pod, facts, again?.current ?? containers)

  let decision: Decision
  if (deadlineExceeded(pod.spec, sandboxes, input.now, input.startTime)) {
    // Killed and Failed for good: nothing of it runs again (the kubelet's activeDeadlineHandler).
    decision = finished(`the pod was active longer than its activeDeadlineSeconds (${pod.spec.activeDeadlineSeconds}s)`, alive)
  } else if (sandbox.create) {
    decision = recreate(input, seen, policy, sandbox, sandboxes.length > 0 || containers.length > 0, alive)
  } else {
    decision = inSandbox(input, seen, policy, sandbox.sandbox.id)
    if (again !== undefined) decision = stopEarlierRun(decision, again)
  }
  return toPlan(input, containers, decision)
}

/** What the decision asks of each regular container's newest instance, worked out once. */
interface Seen {
  /** The instances that count (after an exit that restarts all containers, only the new run's). */
  all: readonly RuntimeContainer[]
  /** The newest instance of each regular container, by name. */
  newest: ReadonlyMap<string, RuntimeContainer>
  /** Each regular container's definition against its newest instance's hash. */
  changes: ReadonlyMap<string, HashComparison>
}

function seenOf(pod: StaticPod['pod'], facts: PodFacts, all: readonly RuntimeContainer[]): Seen {
  const newest = new Map<string, RuntimeContainer>()
  const changes = new Map<string, HashComparison>()
  for (const c of pod.spec.containers) {
    const rc = newestByName(all, c.name)
    if (rc === undefined) continue
    newest.set(c.name, rc)
    changes.set(c.name, containerSpecChanged(facts, c.name, rc))
  }
  return {all, newest, changes}
}

/** Restarting all containers: what still runs of the earlier run stops, and the plan says why. */
function stopEarlierRun(d: Decision, again: RestartAll): Decision {
  if (again.stale.length === 0) return d
  const why = (s: WantedStart): WantedStart => ({...s, reason: `${s.reason}: ${again.why}`})
  return {
    ...d,
    kills: [...d.kills, ...again.stale.map((rc) => ({runtime: rc, reason: `${named(rc)} stops: ${again.why}`}))],
    initStarts: d.initStarts.map(why),
    starts: d.starts.map(why),
  }
}

function finished(reason: string, alive: boolean): Decision {
  return {sandboxId: '', kills: [], initStarts: [], starts: [], terminal: true, ...(alive ? {killPod: reason} : {})}
}

/** The sandbox must be (re)created: start again from the first init container. */
function recreate(
  input: ComputeInput,
  seen: Seen,
  policy: RestartPolicy,
  sandbox: {attempt: number; reason: string; dead: boolean},
  existed: boolean,
  alive: boolean,
): Decision {
  const spec = input.sp.pod.spec
  // A container whose definition changed since it ran belongs to a new pod: it runs again. So
  // does a finished one of a pod whose manifest changed in any way (a label or annotation bump
  // re-runs a job-like static pod, as the kubelet's new pod would).
  const edited = (c: Container): boolean => {
    const rc = seen.newest.get(c.name)
    return rc !== undefined && (seen.changes.get(c.name)?.changed === true || (rc.state === 'exited' && manifestChangedSince(input.sp.pod, rc)))
  }
  // A run-to-completion pod whose sandbox died after its containers ran is not run again, unless
  // it was edited. A container's own restartPolicy or restart rule may make it restartable (the
  // kubelet asks IsContainerRestartable of each container).
  const restartable = spec.containers.some((c) => isContainerRestartable(c, spec))
  if (sandbox.dead && !restartable && seen.all.length > 0 && !spec.containers.some(edited)) {
    return finished(`${sandbox.reason}; the pod's containers already ran and restartPolicy is ${policy}`, alive)
  }
  const anyEdited = spec.containers.some(edited)
  const candidates = spec.containers.filter((c) => {
    if (edited(c)) return true
    const rc = seen.newest.get(c.name)
    if (rc?.state !== 'exited') return true
    // An edited run-to-completion pod runs again as a new pod, every finished container too.
    if (anyEdited) return true
    // Otherwise a container that exited runs again only when its rules or restart policy say so.
    return containerShouldRestart(c, spec, rc.exitCode)
  })
  const initializedBefore = seen.newest.size > 0
  if (candidates.length === 0 && initializedBefore) {
    const why = policy === 'OnFailure' ? `exited with code 0 and restartPolicy is ${policy}` : 'finished and no restart policy or rule restarts it'
    return finished(`every container ${why}; the pod has finished`, alive)
  }
  const where = existed ? 'the new sandbox' : 'the new pod'
  const inits = spec.initContainers ?? []
  const first = inits[0]
  return {
    sandboxId: '',
    ...(existed ? {killPod: sandbox.reason} : {}),
    createSandbox: {attempt: sandbox.attempt, reason: sandbox.reason},
    kills: [],
    initStarts:
      first === undefined ? [] : [{container: first, index: 0, reason: `init container "${first.name}" runs first in ${where}`}],
    starts:
      first !== undefined
        ? []
        : candidates.map((c) => ({container: c, index: spec.containers.indexOf(c), reason: `container "${c.name}" starts in ${where}`, ...(anyEdited ? {fresh: true as const} : {})})),
    terminal: false,
  }
}

/** The sandbox is fine: walk the init containers, then the regular ones. */
function inSandbox(
  input: ComputeInput,
  seen: Seen,
  policy: RestartPolicy,
  sandboxId: string,
): Decision {
  const {pod, facts} = input.sp
  // Init containers count only in the sandbox they ran in: a new sandbox runs them all again
  // (the kubelet purges the old ones when it recreates the sandbox).
  const current = seen.all.filter((c) => c.sandboxId === sandboxId)
  const init = computeInitActions(pod, facts, current, input.probes)
  if (init.failed !== undefined) return {...finished(`${init.failed}; the pod has failed`, true), sandboxId}
  const decision: Decision = {sandboxId, kills: [...init.kills], initStarts: init.starts, starts: [], terminal: false}
  if (!init.initialized) return decision

  let kept = 0
  pod.spec.containers.forEach((c, index) => {
    const rc = seen.newest.get(c.name)
    const what = `container "${c.name}"`
    const start = (reason: string, fresh = false): void => void decision.starts.push({container: c, index, reason, ...(fresh ? {fresh: true as const} : {})})
    const kill = (r: RuntimeContainer, reason: string, replaced = false): void => void decision.kills.push({runtime: r, reason, ...(replaced ? {replaced: true as const} : {})})
    if (rc === undefined) return start(`${what} has not been started yet`)
    switch (rc.state) {
      case 'created':
        kill(rc, `${what} was created but never started`)
        return start(`${what} was created but never started`)
      case 'unknown':
        kill(rc, `${what} is in an unknown state`)
        return start(`${what} was in an unknown state and is restarted`)
      case 'exited': {
        // Its restart rules, then its own restartPolicy, then the pod's (the kubelet's ContainerShouldRestart).
        const why = restartVerdictReason(c, pod.spec, rc.exitCode)
        if (containerShouldRestart(c, pod.spec, rc.exitCode)) return start(`${what} exited with code ${rc.exitCode} and ${why}`)
        // The kubelet runs an edited static pod as a new pod: a finished container whose spec
        // changed runs again (the UID stays); an unchanged one keeps its verdict.
        const {changed, want} = seen.changes.get(c.name) ?? UNJUDGED
        if (changed) return start(`${what} finished (code ${rc.exitCode}) but its spec changed since (hash ${rc.hash} → ${want}): the edited pod runs again`, true)
        if (manifestChangedSince(input.sp.pod, rc)) start(`${what} finished (code ${rc.exitCode}) and the pod's manifest changed since (config hash ${rc.configHash} → ${podConfigHash(input.sp.pod)}): the edited pod runs again`, true)
        return
      }
      case 'running': {
        const {changed, want} = seen.changes.get(c.name) ?? UNJUDGED
        if (changed) {
          // A changed definition replaces the container whatever the restart policy.
          // The image is the change a person most often makes; name it when it is the one.
          const change = rc.image && c.image && rc.image !== c.image ? `image ${rc.image} → ${c.image}` : `hash ${rc.hash} → ${want}`
          kill(rc, `${what}'s spec changed: ${change}`, true)
          return start(`${what}'s spec changed: ${change}`)
        }
        const probe = probeFailure(input.probes, c)
        if (probe !== undefined) {
          kill(rc, `${what} failed its ${probe} probe`)
          // Restarted at once when it may ever restart (the kubelet's IsContainerRestartable): the
          // exit code of the kill is not known yet.
          const may = c.restartPolicy === undefined ? `restartPolicy is ${policy}` : 'its restartPolicy or restartPolicyRules allow restarts'
          if (isContainerRestartable(c, pod.spec)) start(`${what} failed its ${probe} probe and ${may}`)
          return
        }
        kept++
        return
      }
    }
  })

  // Nothing runs and nothing will start: a run-to-completion pod has reached its final phase.
  if (kept === 0 && decision.starts.length === 0) {
    const own = pod.spec.containers.some((c) => c.restartPolicy !== undefined)
    const how = own ? 'has stopped and no restart policy or rule restarts it' : `${policy === 'OnFailure' ? 'exited with code 0' : 'has stopped'} and restartPolicy is ${policy}`
    return {...finished(`every container ${how}; the pod has finished`, true), sandboxId}
  }
  return decision
}

const UNJUDGED: HashComparison = {changed: false, want: ''}

/** The pod's manifest changed since the container was created (unknown for containers made before this was kept). */
function manifestChangedSince(pod: StaticPod['pod'], rc: RuntimeContainer): boolean {
  const now = podConfigHash(pod)
  return rc.configHash !== undefined && now !== '' && rc.configHash !== now
}

function probeFailure(probes: PodProbeResults, c: Container): 'liveness' | 'startup' | undefined {
  const r = probes.get(c.name)
  if (r?.liveness === 'Failure') return 'liveness'
  if (r?.startup === 'Failure') return 'startup'
  return undefined
}

/** Back-off and images decide which wanted starts become actions; then the actions in order. */
function toPlan(input: ComputeInput, containers: readonly RuntimeContainer[], d: Decision): PodActions {
  const blocked: BlockedContainer[] = []
  const pulls = new Map<string, PullImageAction>()
  const starts: StartContainerAction[] = []
  const wanted: Array<{s: WantedStart; type: ContainerType}> = [
    ...d.initStarts.map((s) => ({s, type: initContainerType(s.container)})),
    ...d.starts.map((s) => ({s, type: 'regular' as const})),
  ]
  for (const {s, type} of wanted) {
    const {name} = s.container
    const backOff = input.backOff.get(name)
    const image = s.container.image ?? ''
    if (backOff !== undefined && backOff.until > input.now) {
      blocked.push({name, reason: backOff.reason, message: backOffMessage(backOff, name, image, input.sp.pod)})
      continue
    }
    const pull = decidePull(effectivePullPolicy(image, s.container.imagePullPolicy), image, input.images)
    if ('error' in pull) {
      blocked.push({name, reason: pull.error, message: pull.message})
      continue
    }
    const pullBackOff = pull.pull ? input.pullBackOff?.get(image) : undefined
    if (pullBackOff !== undefined && pullBackOff.until > input.now) {
      blocked.push({name, reason: 'ImagePullBackOff', message: backOffMessage(pullBackOff, name, image, input.sp.pod)})
      continue
    }
    if (pull.pull) {
      const key = imageRefCandidates(image)[0] ?? image
      const existing = pulls.get(key)
      if (existing === undefined) pulls.set(key, {type: 'PullImage', image, containers: [name], reason: pull.reason})
      else existing.containers.push(name)
    }
    const newest = newestByName(containers, name)
    const restartCount = nextRestartCount(newest)
    // Restarts are shown counted from the first run of this definition of this pod: a new or
    // edited definition starts again from 0, as the kubelet's new pod would.
    const newDefinition = s.fresh === true || newest === undefined || containerSpecChanged(input.sp.facts, name, newest).changed
    starts.push({
      type: 'StartContainer',
      name,
      containerType: type,
      restartCount,
      restartBase: newDefinition ? restartCount : (newest.restartBase ?? 0),
      reason: s.reason,
    })
  }
  const actions: PodAction[] = [
    ...pulls.values(),
    ...(d.killPod !== undefined ? [{type: 'KillPod' as const, reason: d.killPod}] : []),
    // An edited container whose new definition cannot start now keeps its old instance serving:
    // stopping it at whichever sync falls in the back-off would make the outage random.
    ...d.kills
      .filter((k) => !(k.replaced && blocked.some((b) => b.name === k.runtime.name)))
      .map((k) => ({type: 'KillContainer' as const, containerId: k.runtime.id, name: k.runtime.name, reason: k.reason})),
    ...(d.createSandbox !== undefined ? [{type: 'CreateSandbox' as const, ...d.createSandbox}] : []),
    ...starts,
  ]
  const {metadata} = input.sp.pod
  return {
    uid: metadata.uid,
    name: metadata.name,
    namespace: metadata.namespace,
    sandboxId: d.sandboxId,
    actions,
    blocked,
    terminal: d.terminal,
  }
}

/**
 * The kubelet's words for a container that waits out its back-off:
 * `back-off 20s restarting failed container=web pod=web-node1_default(<uid>)`, or
 * `Back-off pulling image "nginx:1.27": ErrImagePull: rpc error: code = NotFound desc = …` (the
 * previous pull's error, when known, as the kubelet's prevPullErrMsg).
 */
export function backOffMessage(entry: BackOffEntry, container: string, image: string, pod: StaticPod['pod']): string {
  if (entry.reason === 'ImagePullBackOff') {
    const previous = entry.lastError !== undefined ? `: ErrImagePull: ${entry.lastError}` : ''
    return `Back-off pulling image ${JSON.stringify(image)}${previous}`
  }
  const {name, namespace, uid} = pod.metadata
  return `${entry.message}=${container} pod=${name}_${namespace}(${uid})`
}
