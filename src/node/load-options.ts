// How the commands of this process load manifests: the node's name, domain and `--validate`
// mode, standard input for `-f -`, and unknown fields logged as warnings under `--validate=warn`.
import type {LoadOptions} from '../manifest/load.js'
import {formatIssue} from '../util/errors.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'
import {DEFAULT_MAX_PODS, type NodeConfig} from './config.js'
import type {Logger} from '../util/logger.js'
import {processManifestIO} from './manifest-io.js'

export function manifestLoadOptions(config: NodeConfig, logger: Logger, validate: ValidationMode | undefined = config.validate): LoadOptions {
  return {
    nodeName: config.nodeName,
    clusterDomain: config.clusterDomain,
    io: processManifestIO(),
    validate,
    onWarning: (issue) => logger.warn('Unknown field in manifest', {problem: formatIssue(issue)}),
    maxPods: config.maxPods ?? DEFAULT_MAX_PODS,
  }
}
