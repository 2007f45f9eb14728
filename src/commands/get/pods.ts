import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {getPod, getPods} from '../../services/get.js'
import {renderPodOutput, type PodTableOptions} from '../../cli/render/pods.js'
import {useColor} from '../../cli/render/output.js'
import {namespaceFlags, podQuery, podRefs, selectorFlags} from '../../cli/pod-flags.js'
import {outputFlag} from '../../cli/output-flag.js'
import {podChanges} from '../../cli/watch-rows.js'
import type {Pod} from '../../api/types.js'

export default class GetPods extends BaseCommand<typeof GetPods> {
  static override summary = 'List the pods kube-node manages, read from the runtime.'
  static override aliases = ['ps', 'get:pod', 'get:po']
  static override strict = false
  static override examples = [
    '<%= config.bin %> get pods',
    '<%= config.bin %> get pods -A -l app=web',
    '<%= config.bin %> get pods web -o json',
    '<%= config.bin %> get pods -n kube-system --field-selector status.phase=Running',
    "<%= config.bin %> get pods -o jsonpath='{.items[*].metadata.name}'",
    '<%= config.bin %> get pods -o custom-columns=NAME:.metadata.name,IP:.status.podIP',
    '<%= config.bin %> get pods -w',
  ]
  static override args = {
    name: Args.string({ignoreStdin: true, description: 'Pod name: web, web-<node>, NAMESPACE/web or pod/web (several may be given).'}),
  }
  static override flags = {
    output: outputFlag(['table', 'wide', 'json', 'yaml', 'name']),
    ...namespaceFlags,
    ...selectorFlags,
    watch: Flags.boolean({char: 'w', summary: 'After listing, print a row for every change as it happens, until interrupted.'}),
  }

  async run(): Promise<void> {
    const {argv} = await this.parse(GetPods)
    const f = this.flags
    const refs = podRefs(argv as string[], f)
    const query = podQuery(f)
    const node = await this.kubeNode()
    const list = async (): Promise<Pod[]> => (refs.length > 0 ? Promise.all(refs.map((r) => getPod(node, r))) : (await getPods(node, query)).items)
    const items = await list()
    // kubectl shows NAMESPACE with -A; without -n kube-node lists every namespace, so it shows
    // the column too as soon as there is more than one (otherwise equal names look like twins).
    const table: PodTableOptions = {namespaceColumn: f['all-namespaces'] || (query.namespace === undefined && new Set(items.map((p) => p.metadata?.namespace)).size > 1)}
    const color = useColor()
    const text = renderPodOutput(items, f.output, color, node.clock.now(), {...table, single: refs.length === 1})
    // kubectl prints a jsonpath result as the template makes it, without a newline of its own.
    if (f.output.format === 'jsonpath') process.stdout.write(text)
    else if (text) this.out(text)
    else if (f.output.format === 'table' && !f.watch) process.stderr.write('No pods found.\n')
    if (!f.watch) return

    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    try {
      let header = text === ''
      for await (const changed of podChanges(items, list, node.clock, abort.signal)) {
        // As kubectl -w: a table grows by rows; json and yaml print each changed Pod.
        const each = f.output.format === 'json' || f.output.format === 'yaml'
        const out = each
          ? changed.map((p) => renderPodOutput([p], f.output, color, node.clock.now(), {single: true})).join(f.output.format === 'yaml' ? '---\n' : '')
          : renderPodOutput(changed, f.output, color, node.clock.now(), {...table, noHeader: !header})
        header = false
        if (f.output.format === 'jsonpath') process.stdout.write(out)
        else if (out) this.out(out)
      }
    } finally {
      offSignals()
    }
  }
}
