import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {execInContainer} from '../node/exec.js'

export default class Exec extends BaseCommand<typeof Exec> {
  static override summary = 'Run a command in a running container; its exit code becomes kube-node\'s.'
  static override strict = false
  static override examples = ['<%= config.bin %> exec hello -- cat /etc/hostname', '<%= config.bin %> exec etcd -c etcd -- etcdctl endpoint health']
  static override args = {
    pod: Args.string({ignoreStdin: true, required: true, description: 'Pod name: manifest name or full static-pod name.'}),
  }
  static override flags = {
    container: Flags.string({char: 'c', summary: 'Container name (default: the first one).'}),
    'exec-timeout': Flags.integer({summary: 'Seconds before the command is stopped (0: no limit).', default: 0, min: 0}),
  }

  async run(): Promise<void> {
    const {args, argv} = await this.parse(Exec)
    // Everything after the pod name (oclif drops the `--` separator) is the command.
    const command = (argv as string[]).slice(1)
    const result = await execInContainer(await this.kubeNode(), {
      pod: args.pod,
      ...(this.flags.container ? {container: this.flags.container} : {}),
      command,
      timeoutSeconds: this.flags['exec-timeout'],
    })
    process.stdout.write(result.stdout)
    process.stderr.write(result.stderr)
    if (result.exitCode !== 0) this.exit(result.exitCode)
  }
}
