// What the API reads, injected by the composition root (node/kube-api-data.ts): the same pods,
// events and log files `get pods`, `events` and `logs` show.
import type {Event, Pod} from '../../api/types.js'

export interface NodeLogRequest {
  namespace: string
  name: string
  container?: string | undefined
  previous: boolean
  follow: boolean
  tail?: number | undefined
  timestamps: boolean
}

export interface KubeApiData {
  /** This node's pods with their status, as `get pods -o json` lists them. */
  pods(): Promise<Pod[]>
  /** This node's events, oldest first, as `events -o json` lists them. */
  events(): Promise<Event[]>
  /** Writes a container's log, line by line; throws NotFoundError / InvalidInputError before writing. */
  log(req: NodeLogRequest, write: (line: string) => void, signal: AbortSignal): Promise<void>
  kubeNodeVersion: string
  /** `linux/amd64`, as Go spells it. */
  platform: string
}
