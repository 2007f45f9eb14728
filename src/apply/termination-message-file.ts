// The file a container writes its termination message to: created empty before CreateContainer
// and bind-mounted at its terminationMessagePath (kubelet_pods.go makeMounts). Reading it back
// after the container exited is kuberuntime/termination-message.ts.
import {randomBytes} from 'node:crypto'
import {posix} from 'node:path'
import type {Container} from '../api/types.js'
import type {Mount} from '../cri/api.js'
import type {HostFs} from '../host/port.js'
import {DEFAULT_TERMINATION_MESSAGE_PATH, TERMINATION_MESSAGE_HOST_PATH_ANNOTATION} from '../kuberuntime/termination-message.js'
import {containerDataDir} from '../kuberuntime/naming.js'

export interface TerminationMessageSetup {
  mount: Mount
  /** Annotations to add to the ContainerConfig, so the file is found again after exit. */
  annotations: Record<string, string>
}

/**
 * Creates the empty, world-writable message file (a fresh name per container instance, 8 random
 * hex digits as the kubelet) and returns its read-write mount. Undefined when the container sets
 * terminationMessagePath to "".
 */
export async function prepareTerminationMessage(
  fs: HostFs,
  rootDir: string,
  uid: string,
  container: Container,
  random: () => string = () => randomBytes(4).toString('hex'),
): Promise<TerminationMessageSetup | undefined> {
  const containerPath = container.terminationMessagePath ?? DEFAULT_TERMINATION_MESSAGE_PATH
  if (!containerPath) return undefined
  const dir = containerDataDir(rootDir, uid, container.name)
  await fs.mkdirp(dir, 0o750)
  const hostPath = posix.join(dir, random())
  // Every user in the container must be able to write it.
  await fs.writeFile(hostPath, '', 0o666)
  return {
    mount: {containerPath, hostPath, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE'},
    annotations: {[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]: hostPath},
  }
}
