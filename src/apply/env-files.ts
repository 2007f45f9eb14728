// The effect half of fileKeyRef: before a container's config is built (after its pod's init
// containers ran), read each env file its fileKeyRefs name from the emptyDir volume's directory
// on the host. The file was written by a container and kube-node reads it as root, so the read
// goes through HostFs.readFileInside: contained in the volume, no link followed at any step, no
// FIFO, bounded to the API's size limit. The parsing and key choice stay pure (kuberuntime/env).
import type {Container, StaticPod} from '../api/types.js'
import type {HostFs} from '../host/port.js'
import {ENV_FILE_MAX_BYTES, envFileRefs, type EnvFileStore} from '../kuberuntime/env-file.js'
import {ConfigError} from '../kuberuntime/errors.js'
import {errorMessage} from '../util/errors.js'
import {volumeHostPath, volumeKind} from '../volumes/registry.js'

/** The env files `container` refers to, read from the pod's emptyDir volumes under `rootDir`. */
export async function readEnvFiles(fs: HostFs, rootDir: string, pod: StaticPod['pod'], container: Container): Promise<EnvFileStore> {
  const texts = new Map<string, string | undefined>()
  const id = (volumeName: string, path: string): string => `${volumeName}\0${path}`
  for (const {volumeName, path} of envFileRefs(container.env)) {
    const where = `fileKeyRef ${JSON.stringify(path)} in volume ${JSON.stringify(volumeName)}`
    const volume = pod.spec.volumes?.find((v) => v.name === volumeName)
    // Validation refuses both; this guards a pod that did not pass through it.
    if (!volume) throw new ConfigError(`${where}: the pod has no such volume`)
    if (volumeKind(volume)?.name !== 'emptyDir') throw new ConfigError(`${where}: the volume must be an emptyDir`)
    const dir = volumeHostPath(rootDir, pod.metadata.uid, volume)
    if (dir === undefined) throw new ConfigError(`${where}: the volume has no directory on this node`)
    let data: Buffer | undefined
    try {
      data = await fs.readFileInside(dir, path, ENV_FILE_MAX_BYTES, 'fileKeyRef.path')
    } catch (err) {
      throw new ConfigError(`couldn't read env file for ${where}: ${errorMessage(err)}`)
    }
    texts.set(id(volumeName, path), data?.toString('utf8'))
  }
  return {text: (volumeName, path) => texts.get(id(volumeName, path))}
}
