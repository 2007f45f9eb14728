import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {EVENT_FIELDS} from '../services/events.js'
import {eventPods, selectEvents, type EventSelection} from '../services/query/select-events.js'
import {parseFieldSelector, parseLabelSelector} from '../services/query/selectors.js'
import {namespaceFlags, podRefs} from '../cli/pod-flags.js'
import {eventHeaders, eventRow, paintType, renderEvents} from '../cli/render/events.js'
import {renderTable} from '../cli/render/table.js'
import {toJson, toYaml, useColor} from '../cli/render/output.js'

export default class Events extends BaseCommand<typeof Events> {
  static override summary = "Show the pods' events: what kube-node did to them and what went wrong, in the kubelet's words."
  static override examples = ['<%= config.bin %> events', '<%= config.bin %> events web', '<%= config.bin %> events web --watch', '<%= config.bin %> events -o json', '<%= config.bin %> events -n kube-system --field-selector type=Warning']
  static override args = {
    pod: Args.string({ignoreStdin: true, description: 'Only this pod: web, web-<node>, NAMESPACE/web or pod/web.'}),
  }
  static override flags = {
    watch: Flags.boolean({char: 'w', summary: 'After listing, keep printing events as they happen, until interrupted.'}),
    output: Flags.option({char: 'o', options: ['table', 'json', 'yaml'] as const, default: 'table' as const, summary: 'Output format.'})(),
    ...namespaceFlags,
    selector: Flags.string({char: 'l', summary: 'Only the events of pods with these labels (app=web, tier in (a,b), !canary).'}),
    'field-selector': Flags.string({summary: "Event fields, kubectl's: type=Warning, reason=BackOff, involvedObject.name=web, …"}),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(Events)
    const f = this.flags
    const [pod] = podRefs(args.pod === undefined ? [] : [args.pod], {namespace: f.namespace, 'all-namespaces': f['all-namespaces']})
    const sel: EventSelection = {
      pod,
      namespace: f['all-namespaces'] ? undefined : f.namespace,
      podLabels: f.selector === undefined ? undefined : parseLabelSelector(f.selector),
      fields: f['field-selector'] === undefined ? undefined : parseFieldSelector(f['field-selector'], EVENT_FIELDS, 'events'),
    }
    const node = await this.kubeNode()
    const uids = await eventPods(node, sel)
    const list = await selectEvents(node, sel, uids)
    const color = useColor()
    // As get pods: NAMESPACE with -A, or when a listing without -n spans several namespaces.
    const namespaceColumn = f['all-namespaces'] || (sel.namespace === undefined && new Set(list.items.map((e) => e.metadata.namespace)).size > 1)
    const text = renderEvents(list, this.flags.output, color, node.clock.now(), namespaceColumn)
    if (text) this.out(text)
    else if (this.flags.output === 'table' && !this.flags.watch) process.stderr.write('No events found.\n')
    if (!this.flags.watch) return

    // Poll the event files: a new event, or one whose count went up, is printed once more.
    const seen = new Map(list.items.map((e) => [e.metadata.name ?? '', e.count ?? 0]))
    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    try {
      let header = list.items.length === 0
      while (!abort.signal.aborted) {
        await node.clock.sleep(1000, abort.signal)
        if (abort.signal.aborted) break
        const fresh = (await selectEvents(node, sel, uids)).items.filter((e) => seen.get(e.metadata.name ?? '') !== (e.count ?? 0))
        for (const e of fresh) seen.set(e.metadata.name ?? '', e.count ?? 0)
        if (fresh.length === 0) continue
        if (this.flags.output === 'table') {
          const lines = renderTable(eventHeaders(namespaceColumn), fresh.map((e) => eventRow(e, node.clock.now(), namespaceColumn)), {color, paint: paintType}).split('\n')
          this.out((header ? lines : lines.slice(1)).join('\n'))
          header = false
        } else {
          for (const e of fresh) this.out(this.flags.output === 'json' ? toJson(e) : `---\n${toYaml(e)}`)
        }
      }
    } finally {
      offSignals()
    }
  }
}
