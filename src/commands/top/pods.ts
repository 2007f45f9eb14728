import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {topPods} from '../../services/top.js'
import {renderTop} from '../../cli/render/top.js'

export default class TopPods extends BaseCommand<typeof TopPods> {
  static override summary = "Show the pods' CPU (millicores) and memory (MiB) from the runtime's stats, in kubectl top's columns."
  static override aliases = ['top:pod', 'top:po']
  static override examples = ['<%= config.bin %> top pods', '<%= config.bin %> top pods web --containers', '<%= config.bin %> top pods -o json']
  static override args = {
    name: Args.string({ignoreStdin: true, description: 'Only this pod: the manifest name (web) or the full static-pod name (web-<node>).'}),
  }
  static override flags = {
    containers: Flags.boolean({summary: "One row per container instead of per pod."}),
    namespace: Flags.string({char: 'n', summary: 'Only pods of this namespace.'}),
    'all-namespaces': Flags.boolean({char: 'A', summary: 'Pods of every namespace, with a NAMESPACE column.', exclusive: ['namespace']}),
    output: Flags.option({char: 'o', options: ['table', 'json'] as const, default: 'table' as const, summary: 'Output format.'})(),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(TopPods)
    const f = this.flags
    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    try {
      const {usages} = await topPods(await this.kubeNode(), {name: args.name, namespace: f.namespace, signal: abort.signal})
      if (usages.length === 0 && f.output === 'table') {
        process.stderr.write('No pods found.\n')
        return
      }
      const namespaces = f['all-namespaces'] || new Set(usages.map((u) => u.namespace)).size > 1
      this.out(renderTop(usages, f.output, {containers: f.containers, namespaces}))
    } finally {
      offSignals()
    }
  }
}
