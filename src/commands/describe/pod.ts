import {Args} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {describePod} from '../../node/describe.js'
import {renderDescription} from '../../cli/render/describe.js'

export default class DescribePod extends BaseCommand<typeof DescribePod> {
  static override summary = 'Show one pod in detail, kubectl-style: status, containers, conditions, volumes and its events.'
  static override aliases = ['describe:po']
  static override examples = ['<%= config.bin %> describe pod web', '<%= config.bin %> describe pod web-node1']
  static override args = {
    name: Args.string({ignoreStdin: true, description: 'Pod name: the manifest name (web) or the full static-pod name (web-<node>).', required: true}),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(DescribePod)
    const node = await this.kubeNode()
    this.out(renderDescription(await describePod(node, args.name), node.clock.now()))
  }
}
