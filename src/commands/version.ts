import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {versions} from '../services/version.js'
import {toJson} from '../cli/render/output.js'

export default class Version extends BaseCommand<typeof Version> {
  static override summary = "Show kube-node's version and the container runtime's."
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version -o json']
  static override flags = {
    output: Flags.option({char: 'o', options: ['text', 'json'] as const, default: 'text' as const, summary: 'Output format.'})(),
  }

  async run(): Promise<void> {
    const report = await versions((await this.runtimeClient()).runtime, this.config.version)
    if (this.flags.output === 'json') return this.out(toJson(report))
    const lines = [`kube-node: ${report.kubeNode}`]
    if (report.runtime) {
      lines.push(`runtime: ${report.runtime.runtimeName} ${report.runtime.runtimeVersion}`, `runtime API: ${report.runtime.runtimeApiVersion}`)
    } else lines.push(`runtime: unreachable (${report.runtimeError})`)
    this.out(lines.join('\n'))
  }
}
