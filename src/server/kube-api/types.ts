// What the API reads, injected by the watch service (services/watch/kube-api-data.ts): the same pods,
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

/** Part of a log line as the node's log reader writes it (long lines come in several pieces). */
export interface LogLinePiece {
  /** The text, with its timestamp before it when asked for and `first`. */
  data: Buffer
  /** The time of the line's first record; '' when the line is no CRI record. */
  timestamp: string
  /** The line begins with this piece. */
  first: boolean
  /** The line ends with this piece. */
  last: boolean
}

export interface KubeApiData {
  /** This node's pods with their status, as `get pods -o json` lists them. */
  pods(): Promise<Pod[]>
  /** This node's events, oldest first, as `events -o json` lists them. */
  events(): Promise<Event[]>
  /**
   * Writes a container's log piece by piece, waiting for each promise `write` returns (a slow
   * client); stops when `signal` aborts; throws NotFoundError / InvalidInputError before writing.
   */
  log(req: NodeLogRequest, write: (piece: LogLinePiece) => void | Promise<void>, signal: AbortSignal): Promise<void>
  kubeNodeVersion: string
  /** `linux/amd64`, as Go spells it. */
  platform: string
}
