// What one kind of volume is. Every kind is one record in kinds/, listed once in registry.ts:
// how its source is validated, where it lives on the host, whether containers may write it, what
// kube-node computes for it and how it is made ready (through the host port). Nothing else
// branches on a volume's kind.
import type {StaticPod, Volume} from '../api/types.js'
import type {ObjectStore} from '../api/types.js'
import type {NodeCapacity} from '../kuberuntime/env.js'
import type {Logger} from '../util/logger.js'
import type {HostFs} from '../host/port.js'
import type {Projection, ProjectionContext} from './projection.js'
import type {JsonObject, Report} from '../util/check.js'

export interface VolumeDeps {
  fs: HostFs
  rootDir: string
  /** ConfigMaps and Secrets for configMap, secret and projected volumes; default none. */
  objects?: ObjectStore | undefined
  logger?: Logger | undefined
  /** For downwardAPI volumes: the node's IP and capacity (resourceFieldRef without limits). */
  hostIP?: string | undefined
  nodeCapacity?: NodeCapacity | undefined
}

export interface VolumeKind {
  /** The Volume field that selects the kind, as a user writes it (`configMap`, `hostPath`, …). */
  readonly name: string
  /** Checks the source object (`volumes[i].<name>`), reporting each problem by its field. Pure. */
  validate(report: Report, source: JsonObject): void
  /** Fills in the API's defaults of a valid source (the manifest's defaulting step). */
  defaults?(volume: Volume): void
  matches(volume: Volume): boolean
  /** The directory on the host that backs the volume. */
  hostDir(rootDir: string, uid: string, volume: Volume): string
  /** Containers always mount it read-only (the kubelet's rule for data kube-node computes). */
  readonly readOnly: boolean
  /**
   * How the pod's fsGroup reaches it (the kubelet's SetVolumeOwnership, ownership.ts): 'tree'
   * walks everything it holds after each prepare (data volumes: only files kube-node wrote);
   * 'root' changes its directory alone (emptyDir: the kubelet walks it once, when it is created
   * and still empty, never again over what containers wrote). Absent: never (hostPath).
   */
  readonly fsGroup?: 'tree' | 'root'
  /** The files kube-node computes for it, for kinds that hold computed data; refreshed on resync. */
  project?(volume: Volume, ctx: ProjectionContext): Projection
  /** Makes it ready before a container that mounts it is created; throws ConfigError naming it. */
  prepare(deps: VolumeDeps, pod: StaticPod['pod'], volume: Volume, dir: string): Promise<void>
}
