// The v1 handler shapes the prober runs, named from the Probe type so that only api/types is
// depended on.
import type {Probe} from '../api/types.js'

export type ExecAction = NonNullable<Probe['exec']>
export type HTTPGetAction = NonNullable<Probe['httpGet']>
export type TCPSocketAction = NonNullable<Probe['tcpSocket']>
export type GRPCAction = NonNullable<Probe['grpc']>
