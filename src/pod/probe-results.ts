// What the probers concluded, as data: read by the decisions (restart on liveness failure, init
// ordering on startup), by status (ready/started) and written by the probers.

/** Probe results, as data, keyed by container name. Missing entry = no result yet. */
export type ProbeResult = 'Success' | 'Failure' | 'Unknown'
export interface ContainerProbeResults {
  liveness?: ProbeResult
  readiness?: ProbeResult
  startup?: ProbeResult
}
export type PodProbeResults = ReadonlyMap<string, ContainerProbeResults>
