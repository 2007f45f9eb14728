import {Args} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {downPods} from '../../services/down.js'
import {namespaceFlags, podQuery, podRefs, selectorFlags} from '../../cli/pod-flags.js'
import {InvalidInputError} from '../../util/errors.js'

export default class DeletePod extends BaseCommand<typeof DeletePod> {
  static override summary = 'Stop one or more pods gracefully and remove them.'
  static override aliases = ['delete:pods', 'delete:po']
  static override strict = false
  static override examples = ['<%= config.bin %> delete pod web', '<%= config.bin %> delete pod web-node1 kube-system/db', '<%= config.bin %> delete pods -n test -l app=web']
  static override args = {
    name: Args.string({ignoreStdin: true, description: 'Pod name: web, web-<node>, NAMESPACE/web or pod/web (several may be given).'}),
  }
  static override flags = {...namespaceFlags, ...selectorFlags}

  async run(): Promise<void> {
    const {argv} = await this.parse(DeletePod)
    const f = this.flags
    const refs = podRefs(argv as string[], f)
    const query = podQuery(f)
    // As kubectl: a bare `delete pods` (or only -n) would delete everything; a name or a selector is needed.
    if (refs.length === 0 && !f.selector && !f['field-selector']) {
      throw new InvalidInputError('delete pod needs a pod name or a selector, e.g. kube-node delete pod web or kube-node delete pods -l app=web')
    }
    const result = await downPods(await this.kubeNode(), refs.length > 0 ? {names: refs} : {query})
    for (const name of result.removed) this.outLine(`pod/${name} deleted`)
    if (result.removed.length === 0) process.stderr.write('No pods found.\n')
  }
}
