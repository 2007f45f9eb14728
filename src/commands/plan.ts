import {validateFlag} from '../cli/flags.js'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {planPods} from '../services/plan.js'
import {renderPlans} from '../cli/render/plan.js'
import {useColor} from '../cli/render/output.js'

export default class Plan extends BaseCommand<typeof Plan> {
  static override summary = 'Show the actions run would take against the runtime, and change nothing.'
  static override examples = ['<%= config.bin %> plan -f manifests/hello.yaml', '<%= config.bin %> plan -f /etc/kubernetes/manifests -o json']
  static override flags = {
    filename: Flags.string({char: 'f', summary: 'Manifest file, directory, URL, or - for stdin.', required: true, multiple: true}),
    output: Flags.option({char: 'o', options: ['table', 'json', 'yaml'] as const, default: 'table' as const, summary: 'Output format.'})(),
    validate: validateFlag(),
  }

  async run(): Promise<void> {
    const plans = await planPods(await this.kubeNode(), this.flags.filename)
    this.out(renderPlans(plans, this.flags.output, useColor()))
  }
}
