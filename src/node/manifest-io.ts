// The process's standard input for `-f -`: only the composition root touches process.*.
import type {ManifestIO} from '../manifest/read.js'
import {readStream} from '../manifest/read.js'

export function processManifestIO(): ManifestIO {
  return {stdin: () => readStream(process.stdin)}
}
