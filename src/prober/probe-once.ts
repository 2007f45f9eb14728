// Readiness and startup as of now, for commands that run without the daemon (`get`): each
// running container's readiness and startup probes are run once. A probe that errors counts as
// a failure, as a fresh kubelet would report the container not ready.
import type {StaticPod} from '../api/types.js'
import type {RuntimeService} from '../cri/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import type {ContainerProbeResults, PodProbeResults} from '../pod/probe-results.js'
import {runProbe} from './probe.js'

export async function probeOnce(runtime: RuntimeService, sp: StaticPod, observed: RuntimePod | undefined, hostIP: string): Promise<PodProbeResults> {
  const results = new Map<string, ContainerProbeResults>()
  if (!observed) return results
  const spec = sp.pod.spec
  await Promise.all(
    [...(spec.initContainers ?? []), ...spec.containers].map(async (container) => {
      const rc = observed.containers.find((c) => c.name === container.name)
      if (!rc || rc.state !== 'running') return
      const podIP = observed.sandboxes.find((s) => s.id === rc.sandboxId)?.ip || hostIP || '127.0.0.1'
      const target = {podIP, containerId: rc.id, ports: container.ports ?? []}
      const entry: ContainerProbeResults = {}
      const check = async (probe: typeof container.readinessProbe): Promise<'Success' | 'Failure'> => {
        const outcome = await runProbe(probe!, target, runtime).catch(() => ({result: 'Error' as const}))
        return outcome.result === 'Success' ? 'Success' : 'Failure'
      }
      const [startup, readiness] = await Promise.all([
        container.startupProbe ? check(container.startupProbe) : undefined,
        container.readinessProbe ? check(container.readinessProbe) : undefined,
      ])
      if (startup) entry.startup = startup
      // Readiness only counts once started, as the kubelet gates it.
      if (readiness) entry.readiness = startup === 'Failure' ? 'Failure' : readiness
      results.set(container.name, entry)
    }),
  )
  return results
}
