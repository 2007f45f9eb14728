// The node configuration of the integration tests over the fake CRI: every path under the test's
// own work directory, no real endpoint, short runtime timeouts.
import {join} from 'node:path'
import type {NodeConfig} from '../../src/node/config.js'

export function testNodeConfig(work: string, overrides: Partial<NodeConfig> = {}): NodeConfig {
  return {
    nodeName: 'n1',
    rootDir: join(work, 'root'),
    podLogsDir: join(work, 'logs'),
    runtimeEndpoint: '',
    imageEndpoint: '',
    runtimeRequestTimeoutMs: 1000,
    resolvConf: '',
    clusterDNS: [],
    clusterDomain: 'cluster.local',
    parallelism: 4,
    ...overrides,
  }
}
