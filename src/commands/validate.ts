import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {loadStaticPods} from '../manifest/load.js'
import {processManifestIO} from '../node/manifest-io.js'

export default class Validate extends BaseCommand<typeof Validate> {
  static override summary = 'Parse and validate manifests without touching the runtime.'
  static override description = 'Every problem is reported with its file, document index and field path. Exit code 2 when anything is invalid.'
  static override examples = ['<%= config.bin %> validate -f manifests/', '<%= config.bin %> validate -f etcd.yaml -f kube-apiserver.yaml']
  static override flags = {
    filename: Flags.string({char: 'f', summary: 'Manifest file, directory, URL, or - for stdin.', required: true, multiple: true}),
  }

  async run(): Promise<void> {
    const {nodeName, clusterDomain} = this.nodeConfig()
    const {pods} = await loadStaticPods(this.flags.filename, {nodeName, clusterDomain, io: processManifestIO()})
    for (const sp of pods) this.outLine(`pod/${sp.pod.metadata.name} valid (${sp.source.location}, document ${sp.source.document})`)
  }
}
