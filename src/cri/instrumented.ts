// A decorator around the CRI port, after containerd's instrumented_service.go and the kubelet's
// instrumented_services.go: one place logs every call (mutations at -v 2, reads at -v 5, with
// duration and outcome), feeds per-operation metrics, and counts calls for benchmarks.
// Deadlines are not here: cri/grpc applies them, since only it can cancel a call on the wire.
import type {LogFields, Logger} from '../util/logger.js'
import {realClock, type Clock} from '../util/clock.js'
import {errorMessage, CriError} from '../util/errors.js'
import type {ImageService, Runtime, RuntimeService} from './port.js'

/** Where per-operation observations go (metrics/cri.ts implements it with Prometheus). */
export interface CriMetrics {
  /** `operation` is the RPC name, e.g. `RunPodSandbox`. */
  observe(operation: string, durationMs: number, error: boolean): void
  /** RunPodSandbox once more, by runtime handler ('' for the default), as the kubelet's instrumented service records it. */
  observeRunPodSandbox?(runtimeHandler: string, durationMs: number, error: boolean): void
}

export interface InstrumentedRuntime extends Runtime {
  /** Calls made so far per RPC name (failed ones included), e.g. `{ListPodSandbox: 3}`. */
  callCounts(): Record<string, number>
}

export interface InstrumentDeps {
  logger: Logger
  clock?: Clock
  metrics?: CriMetrics | undefined
}

/** Changes runtime state: logged at -v 2. Everything else is a read, logged at -v 5. */
export const MUTATION_VERBOSITY = 2
export const READ_VERBOSITY = 5

type Describe<A extends unknown[]> = (...args: A) => LogFields
type Summarise<R> = (result: R) => LogFields

/** One CRI call wrapped: counted, timed into the metrics, and logged with what `describe` and `summarise` pick. */
type Wrap = <A extends unknown[], R>(
  operation: string,
  mutation: boolean,
  fn: (...args: A) => Promise<R>,
  describe?: Describe<A>,
  summarise?: Summarise<R>,
) => (...args: A) => Promise<R>

function callWrapper(deps: InstrumentDeps, clock: Clock, counts: Record<string, number>): Wrap {
  return function wrap<A extends unknown[], R>(
    operation: string,
    mutation: boolean,
    fn: (...args: A) => Promise<R>,
    describe?: Describe<A>,
    summarise?: Summarise<R>,
  ): (...args: A) => Promise<R> {
    const v = mutation ? MUTATION_VERBOSITY : READ_VERBOSITY
    return async (...args: A): Promise<R> => {
      counts[operation] = (counts[operation] ?? 0) + 1
      const start = clock.now()
      const finish = (error: unknown, result?: {value: R}): void => {
        const durationMs = clock.now() - start
        deps.metrics?.observe(operation, durationMs, error !== undefined)
        // The kubelet times sandbox creation once more, by runtime handler (its second argument).
        if (operation === 'RunPodSandbox') deps.metrics?.observeRunPodSandbox?.(typeof args[1] === 'string' ? args[1] : '', durationMs, error !== undefined)
        if (!deps.logger.enabled(v)) return
        const fields: LogFields = {call: operation, ...describe?.(...args), durationMs}
        if (error !== undefined) {
          fields['error'] = errorMessage(error)
          if (error instanceof CriError) fields['code'] = error.code
        } else if (result && summarise) Object.assign(fields, summarise(result.value))
        deps.logger.debug(v, error === undefined ? 'CRI call succeeded' : 'CRI call failed', fields)
      }
      try {
        const value = await fn(...args)
        finish(undefined, {value})
        return value
      } catch (err) {
        finish(err ?? new Error('rejected without a reason'))
        throw err
      }
    }
  }
}

export function instrumentRuntime(rt: Runtime, deps: InstrumentDeps): InstrumentedRuntime {
  const counts: Record<string, number> = {}
  const wrap = callWrapper(deps, deps.clock ?? realClock, counts)

  const r = rt.runtime
  const i = rt.images
  const sandboxId = (podSandboxId: string): LogFields => ({podSandboxId})
  const containerId = (id: string): LogFields => ({containerId: id})

  const runtime: RuntimeService = {
    version: wrap('Version', false, () => r.version()),
    status: wrap('Status', false, () => r.status()),
    runtimeFeatures: wrap('Status', false, () => r.runtimeFeatures()),
    runPodSandbox: wrap(
      'RunPodSandbox',
      true,
      (config, handler?: string) => r.runPodSandbox(config, handler),
      (config) => ({pod: `${config.metadata.namespace}/${config.metadata.name}`, attempt: config.metadata.attempt}),
      (id) => ({podSandboxId: id}),
    ),
    stopPodSandbox: wrap('StopPodSandbox', true, (id) => r.stopPodSandbox(id), sandboxId),
    removePodSandbox: wrap('RemovePodSandbox', true, (id) => r.removePodSandbox(id), sandboxId),
    podSandboxStatus: wrap('PodSandboxStatus', false, (id) => r.podSandboxStatus(id), sandboxId),
    listPodSandbox: wrap('ListPodSandbox', false, (filter?) => r.listPodSandbox(filter), undefined, (l) => ({
      count: l.length,
    })),
    createContainer: wrap(
      'CreateContainer',
      true,
      (id, config, sandboxConfig) => r.createContainer(id, config, sandboxConfig),
      (id, config) => ({podSandboxId: id, container: config.metadata.name, attempt: config.metadata.attempt}),
      (id) => ({containerId: id}),
    ),
    startContainer: wrap('StartContainer', true, (id) => r.startContainer(id), containerId),
    stopContainer: wrap(
      'StopContainer',
      true,
      (id, timeoutSeconds) => r.stopContainer(id, timeoutSeconds),
      (id, timeoutSeconds) => ({containerId: id, timeoutSeconds}),
    ),
    removeContainer: wrap('RemoveContainer', true, (id) => r.removeContainer(id), containerId),
    listContainers: wrap('ListContainers', false, (filter?) => r.listContainers(filter), undefined, (l) => ({
      count: l.length,
    })),
    containerStatus: wrap('ContainerStatus', false, (id) => r.containerStatus(id), containerId),
    execSync: wrap(
      'ExecSync',
      false,
      (id, cmd, timeoutSeconds, opts?) => r.execSync(id, cmd, timeoutSeconds, opts),
      (id, cmd) => ({containerId: id, cmd: cmd.join(' ')}),
      (res) => ({exitCode: res.exitCode}),
    ),
    reopenContainerLog: wrap('ReopenContainerLog', false, (id) => r.reopenContainerLog(id), containerId),
    listContainerStats: wrap('ListContainerStats', false, (filter?) => r.listContainerStats(filter), undefined, (l) => ({count: l.length})),
  }

  const images: ImageService = {
    listImages: wrap('ListImages', false, (filter?) => i.listImages(filter), undefined, (l) => ({count: l.length})),
    imageStatus: wrap(
      'ImageStatus',
      false,
      (image) => i.imageStatus(image),
      (image) => ({image: image.image}),
      (img) => ({present: img !== null}),
    ),
    pullImage: wrap(
      'PullImage',
      true,
      (image, sandboxConfig?, opts?, auth?) => i.pullImage(image, sandboxConfig, opts, auth),
      // Only whether credentials were given: they themselves never reach a log.
      (image, _sandboxConfig?, _opts?, auth?) => ({image: image.image, ...(auth ? {withCredentials: true} : {})}),
      (ref) => ({imageRef: ref}),
    ),
    removeImage: wrap('RemoveImage', true, (image) => i.removeImage(image), (image) => ({image: image.image})),
  }

  return {
    runtime,
    images,
    close: () => rt.close(),
    callCounts: () => ({...counts}),
  }
}
