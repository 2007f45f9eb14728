// Puts kube-node-labelled pods into the fake runtime, as the executor would.
import type {ContainerConfig, PodSandboxConfig} from '../../../src/cri/api.js'
import type {FakeRuntime} from '../../support/fake-runtime.js'

export const IMAGE = 'busybox:1.36'

export function sandboxConfig(uid: string, opts: {hostNetwork?: boolean} = {}): PodSandboxConfig {
  const name = `pod-${uid}-node1`
  const config: PodSandboxConfig = {
    metadata: {name, uid, namespace: 'default', attempt: 0},
    hostname: name,
    logDirectory: `/var/log/pods/default_${name}_${uid}`,
    portMappings: [],
    labels: {
      'io.kubernetes.pod.name': name,
      'io.kubernetes.pod.namespace': 'default',
      'io.kubernetes.pod.uid': uid,
      'kube-node.io/managed': 'true',
    },
    annotations: {},
  }
  if (opts.hostNetwork) config.linux = {securityContext: {namespaceOptions: {network: 'NODE', pid: 'POD', ipc: 'POD'}}}
  return config
}

function containerConfig(uid: string, name: string): ContainerConfig {
  return {
    metadata: {name, attempt: 0},
    image: {image: IMAGE},
    command: [],
    args: [],
    workingDir: '',
    envs: [],
    mounts: [],
    labels: {
      'io.kubernetes.container.name': name,
      'io.kubernetes.pod.uid': uid,
      'kube-node.io/managed': 'true',
    },
    annotations: {},
    logPath: `${name}/0.log`,
    stdin: false,
    stdinOnce: false,
    tty: false,
  }
}

/** A sandbox with the named containers, created and (unless `start` is false) started. */
export async function addPod(
  fake: FakeRuntime,
  uid: string,
  names: string[],
  opts: {start?: boolean; hostNetwork?: boolean} = {},
): Promise<{sandboxId: string; containerIds: string[]}> {
  const config = sandboxConfig(uid, opts)
  const sandboxId = await fake.runPodSandbox(config)
  const containerIds: string[] = []
  for (const n of names) {
    const id = await fake.createContainer(sandboxId, containerConfig(uid, n), config)
    if (opts.start !== false) await fake.startContainer(id)
    containerIds.push(id)
  }
  return {sandboxId, containerIds}
}
