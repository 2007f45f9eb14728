// The CreateSandbox step: a new sandbox for the pod, the old ones stopped but kept with their exited
// containers (restart counts, last state and `logs --previous` survive, and a container that
// succeeded is not run again) until garbage collection, as the kubelet keeps them; then the new
// sandbox's IP, asked once of the runtime.
import type {PodSandboxConfig} from '../cri/api.js'
import type {RuntimeService} from '../cri/port.js'
import type {RuntimePod} from '../kuberuntime/model.js'
import {errorMessage} from '../util/errors.js'
import type {HostFs} from '../host/port.js'
import type {StepFailure} from './step-failure.js'

export interface SandboxDeps {
  runtime: RuntimeService
  fs: HostFs
}

export type SandboxOutcome = {sandboxId: string; ip: string} | {failure: StepFailure}

export async function createSandbox(deps: SandboxDeps, config: PodSandboxConfig, observed: RuntimePod | undefined): Promise<SandboxOutcome> {
  let sandboxId: string
  try {
    await deps.fs.mkdirp(config.logDirectory)
    sandboxId = await deps.runtime.runPodSandbox(config)
  } catch (err) {
    return {failure: {container: '', reason: 'CreatePodSandboxError', message: `failed to create sandbox: ${errorMessage(err)}`, permanent: false}}
  }
  // Stopped already by the KillPod before this step; one still ready (adopted, raced) is stopped now.
  for (const old of observed?.sandboxes ?? []) if (old.state === 'ready') await deps.runtime.stopPodSandbox(old.id)
  const ip = (await deps.runtime.podSandboxStatus(sandboxId).catch(() => undefined))?.network?.ip ?? ''
  return {sandboxId, ip}
}
