// How this process reads manifests: files through the host's HostFs and standard input for
// `-f -` (only the composition root touches process.*).
import type {ManifestIO} from '../manifest/read.js'
import {hostManifestIO, readStream} from '../manifest/read.js'
import {nodeHostFs} from '../host/node-host-fs.js'

export function processManifestIO(): ManifestIO {
  return {...hostManifestIO(nodeHostFs), stdin: () => readStream(process.stdin)}
}
