import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {loadStaticPods} from '../manifest/load.js'
import {manifestLoadOptions} from '../node/load-options.js'
import {validateFlag} from '../cli/flags.js'

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Parse and validate manifests without touching the runtime.'
  static override description = 'Every problem is reported with its file, document index and field path. Exit code 2 when anything is invalid.'
  static override examples = ['<%= config.bin %> validate -f manifests/', '<%= config.bin %> validate -f etcd.yaml -f kube-apiserver.yaml']
  static override flags = {
    filename: Flags.string({char: 'f', summary: 'Manifest file, directory, URL, or - for stdin.', required: true, multiple: true}),
    validate: validateFlag(),
  }

  async run(): Promise<void> {
    const {pods} = await loadStaticPods(this.flags.filename, manifestLoadOptions(this.nodeConfig(), this.logger))
    for (const sp of pods) this.outLine(`pod/${sp.pod.metadata.name} valid (${sp.source.location}, document ${sp.source.document})`)
  }
}
