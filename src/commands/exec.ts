import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {execInContainer} from '../services/exec.js'
import {selectOnly} from '../services/query/select-pods.js'
import {namespaceFlags, podQuery, podRefs, selectorFlags} from '../cli/pod-flags.js'
import {InvalidInputError} from '../util/errors.js'

export default class Exec extends BaseCommand<typeof Exec> {
  static override summary = 'Run a command in a running container; its exit code becomes kube-node\'s.'
  static override strict = false
  static override examples = ['<%= config.bin %> exec hello -- cat /etc/hostname', '<%= config.bin %> exec etcd -c etcd -- etcdctl endpoint health']
  static override args = {
    pod: Args.string({ignoreStdin: true, description: 'Pod name: web, web-<node>, NAMESPACE/web or pod/web.'}),
  }
  static override flags = {
    container: Flags.string({char: 'c', summary: 'Container name (default: the first one).'}),
    'exec-timeout': Flags.integer({summary: 'Seconds before the command is stopped (0: no limit).', default: 0, min: 0}),
    ...namespaceFlags,
    ...selectorFlags,
  }

  async run(): Promise<void> {
    const {args, argv} = await this.parse(Exec)
    const f = this.flags
    const hasSelector = f.selector !== undefined || f['field-selector'] !== undefined
    // Everything after the pod name (oclif drops the `--` separator) is the command; with a
    // selector instead of a name, all of argv is.
    const command = (argv as string[]).slice(hasSelector ? 0 : 1)
    const [ref] = hasSelector || args.pod === undefined ? [] : podRefs([args.pod], f)
    if (!ref && !hasSelector) throw new InvalidInputError('exec needs a pod name and a command, e.g. kube-node exec web -- ls /')
    const node = await this.kubeNode()
    const target = ref ?? (await selectOnly(node, podQuery(f)))
    const result = await execInContainer(node, {
      pod: target.name,
      namespace: target.namespace,
      ...(this.flags.container ? {container: this.flags.container} : {}),
      command,
      timeoutSeconds: this.flags['exec-timeout'],
    })
    process.stdout.write(result.stdout)
    process.stderr.write(result.stderr)
    if (result.exitCode !== 0) this.exit(result.exitCode)
  }
}
