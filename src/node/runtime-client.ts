// The CRI client alone, for commands that only ask the runtime (`version`): none of the sync,
// probe or store machinery of createNode is loaded or built for them.
import {createGrpcRuntime} from '../cri/grpc/client.js'
import type {Runtime} from '../cri/port.js'
import type {NodeConfig} from './config.js'

export function createRuntimeClient(config: NodeConfig): Runtime {
  return createGrpcRuntime({runtimeEndpoint: config.runtimeEndpoint, imageEndpoint: config.imageEndpoint, callTimeoutMs: config.runtimeRequestTimeoutMs})
}
