// The four handlers probes (and, later, lifecycle hooks) run, in one place.
export type {HandlerOutcome, HandlerTarget} from './target.js'
export type {ExecAction, GRPCAction, HTTPGetAction, TCPSocketAction} from './actions.js'
export {runExec} from './exec.js'
export {runHttpGet, DEFAULT_USER_AGENT} from './http-get.js'
export {runTcp} from './tcp.js'
export {runGrpc} from './grpc-health.js'
