// One line a person can read per planned action; `plan` prints these and the sync logs them.
import type {PodAction, PodActions} from './actions.js'
import {shortId} from './sandbox-decision.js'

export function describeAction(a: PodAction): string {
  switch (a.type) {
    case 'PullImage':
      return `pull image ${a.image} (for ${a.containers.map((c) => `"${c}"`).join(', ')}): ${a.reason}`
    case 'KillPod':
      return `stop the pod: ${a.reason}`
    case 'KillContainer':
      return `stop container "${a.name}" (${shortId(a.containerId)}): ${a.reason}`
    case 'CreateSandbox':
      return `create sandbox (attempt ${a.attempt}): ${a.reason}`
    case 'StartContainer': {
      const kind = a.containerType === 'regular' ? 'container' : a.containerType === 'init' ? 'init container' : 'sidecar'
      const restart = a.restartCount > 0 ? ` (restart ${a.restartCount})` : ''
      return `start ${kind} "${a.name}"${restart}: ${a.reason}`
    }
  }
}

/** The plan as lines: every action, then every container that must wait; `nothing to do` if neither. */
export function describeActions(plan: PodActions): string[] {
  const lines = plan.actions.map(describeAction)
  for (const b of plan.blocked) lines.push(`wait for container "${b.name}" (${b.reason}): ${b.message}`)
  return lines.length > 0 ? lines : ['nothing to do']
}
