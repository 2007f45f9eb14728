// The CLI's runtime entry, bundled by scripts/bundle.mjs into one CommonJS file with oclif and
// every command: bin/run.js (or the single executable) loads that file and calls main(). oclif
// runs as usual, but its root plugin serves the commands and their manifest from the bundle.
import {flush, handle, run} from '@oclif/core'
import {AUTOCOMPLETE, MANIFEST, PJSON} from 'kube-node:bundle'
import {BundledPlugin} from './bundled-plugin.js'
import {COMMANDS} from './commands.js'

/** Runs one kube-node command line; `root` is where kube-node is installed. */
export async function main(argv: readonly string[], root: string): Promise<void> {
  const plugin = new BundledPlugin({root, pjson: PJSON, manifest: MANIFEST, commands: {...COMMANDS, ...AUTOCOMPLETE}})
  await plugin.load()
  try {
    await run([...argv], {root, pjson: PJSON, plugins: new Map([[plugin.name, plugin]])})
    await flush()
  } catch (error) {
    await handle(error as Error)
  }
}
