import {BaseCommand} from '../cli/base-command.js'
import {kubeconfigFor} from '../services/kubeconfig.js'
import {toYaml} from '../cli/render/output.js'

export default class Kubeconfig extends BaseCommand<typeof Kubeconfig> {
  static override summary = "Print a kubeconfig that points kubectl at the running watch's read-only API."
  static override description = 'Exits 1 when no `kube-node watch` with an API port runs with this --root-dir. The kubeconfig points at the API over TLS, trusts that watch\'s certificate and holds the token that logs and events need: it is a secret (whoever has it reads every container\'s log), and it is new at every start of watch. Run it as the user that runs watch (root).'
  static override examples = [
    '<%= config.bin %> kubeconfig > ~/.kube/kube-node.yaml && KUBECONFIG=~/.kube/kube-node.yaml kubectl get pods',
    'kubectl --kubeconfig <(<%= config.bin %> kubeconfig) get pods -o wide',
  ]

  async run(): Promise<void> {
    const config = this.nodeConfig()
    this.out(toYaml(await kubeconfigFor(config.rootDir, config.nodeName)))
  }
}
