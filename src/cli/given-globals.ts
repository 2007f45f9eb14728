// The global flags a user gave, as arguments to repeat in a command printed for copy-paste (the
// failure report's `more:`): pasted without them, the command would ask another root dir, runtime
// or node. Paths are the absolute ones kube-node used, so the paste works from any directory. Pure.
import type {NodeConfig} from '../node/config.js'

/** The flags that choose which node, state and runtime a command looks at. */
const LOCATING = ['root-dir', 'runtime-endpoint', 'image-endpoint', 'node-name', 'pod-logs-dir', 'config'] as const

export function givenGlobalArgs(given: ReadonlySet<string>, config: NodeConfig, configFile: string | undefined): string[] {
  const value: Record<(typeof LOCATING)[number], string | undefined> = {
    'root-dir': config.rootDir,
    'runtime-endpoint': config.runtimeEndpoint,
    'image-endpoint': config.imageEndpoint,
    'node-name': config.nodeName,
    'pod-logs-dir': config.podLogsDir,
    config: configFile,
  }
  return LOCATING.flatMap((flag) => {
    const v = value[flag]
    return given.has(flag) && v !== undefined && v !== '' ? [`--${flag}`, v] : []
  })
}
