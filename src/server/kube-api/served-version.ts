// Which Kubernetes minor version /version names. `kubectl version` warns when the server's minor
// differs from its own by more than one (it compares only major and minor of gitVersion, and fails
// on a gitVersion that is not semantic). kube-node's API serves only core v1 reads (pods, their
// logs, events), which every kubectl in use speaks, so that warning would be about features it
// does not serve: a kubectl is answered with its own minor, everyone else with the release
// kube-node's types come from. The build metadata (`+kube-node-…`) still says who answers. Pure.
import {KUBE_MAJOR, KUBE_MINOR} from './discovery.js'

/** kubectl's User-Agent starts `kubectl/v1.32.4` (client-go's default agent, with a build suffix at times). */
const KUBECTL_AGENT = /^kubectl\/v(\d+)\.(\d+)\./

export function servedMinor(userAgent: string | undefined): string {
  const m = KUBECTL_AGENT.exec(userAgent ?? '')
  if (!m || m[1] !== KUBE_MAJOR) return KUBE_MINOR
  // A leading zero or an absurd number is no kubectl release: answer with our own.
  const minor = Number(m[2])
  return String(minor) === m[2] && minor > 0 && minor < 1000 ? m[2] : KUBE_MINOR
}
