import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {getPods} from '../../node/get.js'
import {renderPods} from '../../cli/render/pods.js'
import {useColor} from '../../cli/render/output.js'

export default class GetPods extends BaseCommand<typeof GetPods> {
  static override summary = "List the pods kube-node manages, read from the runtime."
  static override aliases = ['ps', 'get:pod', 'get:po']
  static override examples = ['<%= config.bin %> get pods', '<%= config.bin %> get pods web -o json', '<%= config.bin %> ps -o wide']
  static override args = {
    name: Args.string({ignoreStdin: true, description: 'Pod name: the manifest name (web) or the full static-pod name (web-<node>).'}),
  }
  static override flags = {
    output: Flags.option({char: 'o', options: ['table', 'wide', 'json', 'yaml', 'name'] as const, default: 'table' as const, summary: 'Output format.'})(),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(GetPods)
    const node = await this.kubeNode()
    const list = await getPods(node, args.name)
    const text = renderPods(list.items, this.flags.output, useColor(), node.clock.now())
    if (text) this.out(text)
    else if (this.flags.output === 'table') process.stderr.write('No pods found.\n')
  }
}
