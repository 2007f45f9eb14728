import {Args} from '@oclif/core'
import {BaseCommand} from '../../cli/base-command.js'
import {downPods} from '../../node/down.js'

export default class DeletePod extends BaseCommand<typeof DeletePod> {
  static override summary = 'Stop one or more pods gracefully and remove them.'
  static override strict = false
  static override examples = ['<%= config.bin %> delete pod web', '<%= config.bin %> delete pod web-node1 db-node1']
  static override args = {
    name: Args.string({ignoreStdin: true, required: true, description: 'Pod name: manifest name or full static-pod name.'}),
  }

  async run(): Promise<void> {
    const {argv} = await this.parse(DeletePod)
    const result = await downPods(await this.kubeNode(), {names: argv as string[]})
    for (const name of result.removed) this.outLine(`pod/${name} deleted`)
  }
}
