import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {downPods} from '../services/down.js'
import {InvalidInputError} from '../util/errors.js'

export default class Down extends BaseCommand<typeof Down> {
  static override summary = 'Stop pods gracefully and remove their sandboxes.'
  static override description = "Each pod gets its grace period (SIGTERM, then SIGKILL); then its sandboxes, data and log directories are removed. Only pods kube-node created are touched."
  static override examples = ['<%= config.bin %> down -f manifests/hello.yaml', '<%= config.bin %> down --all']
  static override flags = {
    filename: Flags.string({char: 'f', summary: 'Manifest file, directory, URL, or - for stdin.', multiple: true, exclusive: ['all']}),
    all: Flags.boolean({summary: "Every pod kube-node manages.", exclusive: ['filename']}),
  }

  async run(): Promise<void> {
    const {filename, all} = this.flags
    if (!all && !filename?.length) throw new InvalidInputError('down needs -f LOCATION or --all')
    const result = await downPods(await this.kubeNode(), all ? {all: true} : {locations: filename ?? []})
    for (const name of result.removed) this.outLine(`pod/${name} deleted`)
  }
}
