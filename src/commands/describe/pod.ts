import {Args} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {describePod, describePods} from '../../services/describe.js'
import {renderDescription} from '../../cli/render/describe.js'
import {namespaceFlags, podQuery, podRefs, selectorFlags} from '../../cli/pod-flags.js'
import {InvalidInputError, NotFoundError} from '../../util/errors.js'

export default class DescribePod extends BaseCommand<typeof DescribePod> {
  static override summary = 'Show pods in detail, kubectl-style: status, containers, conditions, volumes and their events.'
  static override aliases = ['describe:po', 'describe:pods']
  static override strict = false
  static override examples = ['<%= config.bin %> describe pod web', '<%= config.bin %> describe pod kube-system/etcd', '<%= config.bin %> describe pods -l tier=control-plane']
  static override args = {
    name: Args.string({ignoreStdin: true, description: 'Pod name: web, web-<node>, NAMESPACE/web or pod/web (several may be given).'}),
  }
  static override flags = {...namespaceFlags, ...selectorFlags}

  async run(): Promise<void> {
    const {argv} = await this.parse(DescribePod)
    const f = this.flags
    const refs = podRefs(argv as string[], f)
    const query = podQuery(f)
    if (refs.length === 0 && !f.selector && !f['field-selector'] && !f['all-namespaces'] && f.namespace === undefined) {
      throw new InvalidInputError('describe pod needs a pod name or a selector, e.g. kube-node describe pod web or kube-node describe pods -l app=web')
    }
    const node = await this.kubeNode()
    const descriptions = refs.length > 0 ? await Promise.all(refs.map((r) => describePod(node, r))) : await describePods(node, query)
    if (descriptions.length === 0) throw new NotFoundError('no pods match')
    this.out(descriptions.map((d) => renderDescription(d, node.clock.now())).join('\n\n'))
  }
}
