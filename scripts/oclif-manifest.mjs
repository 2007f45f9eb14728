// Build step: writes oclif.manifest.json (what `oclif manifest` makes) so that a command's start
// loads only that command's module, not every command to list them. Delete it in development if
// commands change without a build; `npm run build` rewrites it.
import {rmSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Config} from '@oclif/core'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'oclif.manifest.json')
rmSync(out, {force: true})
const config = await Config.load({root, ignoreManifest: true})
const plugin = config.plugins.get(config.pjson.name)
if (!plugin) throw new Error('root plugin not found')
writeFileSync(out, JSON.stringify(plugin.manifest, null, 2) + '\n')
console.log(`oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands`)
