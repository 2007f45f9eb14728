import {Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {runPods} from '../services/run.js'
import {createProgress} from '../cli/render/progress.js'
import {renderRunResults} from '../cli/render/run-results.js'
import {durationFlag, validateFlag} from '../cli/flags.js'
import {PodFailedError} from '../util/errors.js'
import {planPods} from '../services/plan.js'
import {failureReports} from '../services/failure-report.js'
import {renderPlans} from '../cli/render/plan.js'
import {useColor} from '../cli/render/output.js'

/**
 * Long enough to see a container that fails on its configuration a few seconds after start (an
 * apiserver that cannot reach etcd), short enough for a CI step; README "Exit status" says why.
 */
const DEFAULT_STABLE_FOR = '5s'

export default class Run extends BaseCommand<typeof Run> {
  static override summary = 'Converge static pods once through the CRI, wait for them, and report.'
  static override description =
    'Reads the manifests, validates all of them (nothing changes if any is invalid), creates or updates the pods, waits until each reaches its goal (Running, Ready, or finished for run-to-completion pods) and prints one row per pod.'
  static override examples = [
    '<%= config.bin %> run -f manifests/hello.yaml',
    '<%= config.bin %> run -f /etc/kubernetes/manifests --wait ready --timeout 10m',
    '<%= config.bin %> run -f etcd.yaml --stable-for 15s',
    'cat pod.yaml | <%= config.bin %> run -f - -o json',
  ]
  static override flags = {
    filename: Flags.string({char: 'f', summary: 'Manifest file, directory, URL, or - for stdin.', required: true, multiple: true}),
    wait: Flags.option({options: ['running', 'ready', 'none'] as const, default: 'running' as const, summary: 'What to wait for.'})(),
    timeout: durationFlag({default: '5m', summary: 'How long to wait for all pods.', examples: '90s or 5m'}),
    'stable-for': durationFlag({
      default: DEFAULT_STABLE_FOR,
      summary: 'How long each container must have run without a restart (and the pod been Ready, with --wait ready) to count; 0 takes the first sighting.',
      examples: '5s or 0',
    }),
    output: Flags.option({char: 'o', options: ['table', 'json', 'yaml'] as const, default: 'table' as const, summary: 'Output format.'})(),
    'dry-run': Flags.boolean({summary: 'Print the actions run would take, and change nothing.'}),
    validate: validateFlag(),
  }

  async run(): Promise<void> {
    const {flags} = this
    const node = await this.kubeNode()
    if (flags['dry-run']) {
      this.out(renderPlans(await planPods(node, flags.filename), flags.output === 'table' ? 'table' : flags.output, useColor()))
      return
    }
    const progress = await createProgress({tty: Boolean(process.stderr.isTTY) && !process.env['NO_COLOR'], quiet: flags.output !== 'table' && !process.stderr.isTTY})
    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    let results
    try {
      results = await runPods(node, flags.filename, {wait: flags.wait, timeoutMs: flags.timeout, stableForMs: flags['stable-for'], signal: abort.signal}, (e) => progress.onEvent(e))
    } finally {
      progress.stop()
      offSignals()
    }
    this.out(renderRunResults(results, flags.output, useColor(), node.clock.now(), await failureReports(node, results, this.givenGlobals())))
    const failed = results.filter((r) => r.outcome !== 'done')
    if (failed.length > 0) {
      throw new PodFailedError(failed.map((r) => `pod ${r.sp.pod.metadata.name} ${r.outcome === 'timeout' ? 'did not reach its goal' : 'failed'}: ${r.reason}`).join('; '))
    }
  }
}
