// Build step: renders `kube-node --help` and every `kube-node <command> --help` once, with oclif's
// own help at 80 columns and no colour, into dist/help/, so that bin/run.js can print help without
// loading oclif (a third of a start). The platform and Node version in the root help are filled in
// when printed. A command this does not render (a plugin's) still gets oclif's help.
import {spawnSync} from 'node:child_process'
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'dist/help')
const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'))
const runtime = `${process.platform}-${process.arch} node-${process.version}`

rmSync(outDir, {recursive: true, force: true})
mkdirSync(outDir, {recursive: true})
const ids = ['', ...Object.keys(manifest.commands)]
const pages = new Map()
for (const id of ids) {
  const args = [join(root, 'bin/run.js'), ...(id ? id.split(':') : []), '--help']
  const r = spawnSync(process.execPath, args, {encoding: 'utf8', env: {...process.env, NO_COLOR: '1', OCLIF_COLUMNS: '80', KUBE_NODE_NO_HELP_CACHE: '1'}})
  if (r.status !== 0) throw new Error(`help-text: ${id || 'root'} --help failed: ${r.stderr}`)
  pages.set(id, r.stdout.replaceAll(runtime, '{{runtime}}'))
}
for (const [id, text] of pages) {
  writeFileSync(join(outDir, `${id || '_root'}.txt`), text)
  // An alias (get:pod, describe:pods, ps) prints its command's page.
  for (const alias of manifest.commands[id]?.aliases ?? []) writeFileSync(join(outDir, `${alias}.txt`), text)
}
console.log(`help-text: ${ids.length} help pages in dist/help`)
