// The CLI's runtime entry, bundled by scripts/bundle.mjs into one CommonJS file with oclif and
// every command: bin/run.js (or the single executable) loads that file and calls main(). oclif
// runs as usual, but its root plugin serves the commands and their manifest from the bundle.
import {Config, flush, handle, run} from '@oclif/core'
import {AUTOCOMPLETE, MANIFEST, PJSON} from 'kube-node:bundle'
import {BundledPlugin} from './bundled-plugin.js'
import {COMMANDS} from './commands.js'
import {kubectlArgv} from '../cli/kubectl-argv.js'
import {KubeNodeHelp} from '../cli/help.js'

/** Every command id and alias of the manifest, as typed (`get pods`, `ps`), and which take no argument. */
function commandTable(): {names: string[]; noArgs: Map<string, {filename: boolean}>; valueFlags: Set<string>} {
  const commands = Object.values(MANIFEST.commands)
  const names = commands.flatMap((c) => [c.id, ...(c.aliases ?? [])]).map((id) => id.replaceAll(':', ' '))
  const noArgs = new Map(
    commands.filter((c) => !c.id.includes(':') && Object.keys(c.args ?? {}).length === 0 && c.strict !== false).map((c) => [c.id, {filename: Object.hasOwn(c.flags ?? {}, 'filename')}]),
  )
  const valueFlags = new Set(
    commands.flatMap((c) => Object.entries(c.flags ?? {}).filter(([, f]) => f.type === 'option').flatMap(([name, f]) => [`--${name}`, ...(f.char ? [`-${f.char}`] : [])])),
  )
  return {names, noArgs, valueFlags}
}

/** oclif's rule: no words at all, or --help before any `--`. */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  const words = end === -1 ? argv : argv.slice(0, end)
  return argv.length === 0 || words.includes('--help') || words.includes('-h')
}

/** Runs one kube-node command line; `root` is where kube-node is installed. */
export async function main(argv: readonly string[], root: string): Promise<void> {
  const read = kubectlArgv(argv, commandTable(), PJSON.oclif.bin ?? 'kube-node')
  if ('error' in read) {
    // A usage error, like oclif's own: one sentence, exit 2.
    process.stderr.write(`error: ${read.error}\n`)
    process.exitCode = 2
    return
  }
  const plugin = new BundledPlugin({root, pjson: PJSON, manifest: MANIFEST, commands: {...COMMANDS, ...AUTOCOMPLETE}})
  await plugin.load()
  try {
    const config = await Config.load({root, pjson: PJSON, plugins: new Map([[plugin.name, plugin]])})
    if (wantsHelp(read.argv)) {
      await new KubeNodeHelp(config).showHelp(read.argv)
      return
    }
    await run(read.argv, config)
    await flush()
  } catch (error) {
    await handle(error as Error)
  }
}
