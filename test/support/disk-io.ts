// Manifests read from the real disk (temp dirs), through the host port as the node reads them.
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {hostManifestIO} from '../../src/manifest/read.js'

export const diskIO = hostManifestIO(nodeHostFs)
