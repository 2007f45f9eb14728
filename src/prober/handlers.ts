// The four handlers probes (and, later, lifecycle hooks) run, in one place.
export type {HandlerOutcome, HandlerTarget} from './target.js'
export type {ExecAction, GRPCAction, HTTPGetAction, TCPSocketAction} from './actions.js'
export {runExec} from './exec.js'
export {runTcp} from './tcp.js'
export {DEFAULT_USER_AGENT} from './target.js'

// The HTTP and gRPC handlers load node:http, node:https and node:http2 (a few milliseconds of
// every start, on a 2-core machine): only a pod that has such a probe or hook pays for them.
type HttpGet = typeof import('./http-get.js').runHttpGet
type Grpc = typeof import('./grpc-health.js').runGrpc

export const runHttpGet: HttpGet = async (...args) => (await import('./http-get.js')).runHttpGet(...args)
export const runGrpc: Grpc = async (...args) => (await import('./grpc-health.js')).runGrpc(...args)
