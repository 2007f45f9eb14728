// Build step after tsc: writes oclif.manifest.json (what `oclif manifest` makes): every command's
// flags, args and help, read from tsc's output. The bundle (scripts/bundle.mjs) carries it, and the
// completion commands of @oclif/plugin-autocomplete with it, since the bundle serves them itself.
// Delete it in development if commands change without a build; `npm run build` rewrites it.
import {rmSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {createRequire} from 'node:module'
import {Config, Plugin} from '@oclif/core'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'oclif.manifest.json')
rmSync(out, {force: true})
// oclif only warns about a command it cannot load and leaves it out; a build must fail instead.
const warnings = []
process.on('warning', (w) => warnings.push(w))
const config = await Config.load({root, ignoreManifest: true})
await new Promise((done) => setImmediate(done))
if (warnings.length > 0) throw new Error(`oclif-manifest: ${warnings.map((w) => w.detail ?? w.message).join('\n')}`)
const plugin = config.plugins.get(config.pjson.name)
if (!plugin) throw new Error('root plugin not found')
// Bundled, not installed as a plugin: its manifest is read from the package itself.
const completionRoot = dirname(dirname(createRequire(import.meta.url).resolve('@oclif/plugin-autocomplete')))
const completion = new Plugin({root: completionRoot, name: '@oclif/plugin-autocomplete', type: 'core'})
await completion.load()
const commands = {...plugin.manifest.commands}
for (const [id, command] of Object.entries(completion.manifest.commands)) {
  commands[id] = {...command, pluginName: plugin.name, pluginAlias: plugin.name, pluginType: 'core'}
}
writeFileSync(out, JSON.stringify({...plugin.manifest, commands}, null, 2) + '\n')
console.log(`oclif.manifest.json: ${Object.keys(commands).length} commands`)
