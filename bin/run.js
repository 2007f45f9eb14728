#!/usr/bin/env node
// Production entry point: runs the compiled commands in dist/. `--help` of kube-node or of one of
// its commands is printed from the text the build rendered with oclif (scripts/help-text.mjs),
// without loading oclif; everything else goes through oclif.
import {readFileSync} from 'node:fs'

const args = process.argv.slice(2)
const last = args.at(-1)
const words = args.slice(0, -1)
if ((last === '--help' || last === '-h') && words.every((w) => /^[a-z][a-z-]*$/.test(w)) && !process.env.KUBE_NODE_NO_HELP_CACHE) {
  let text
  try {
    text = readFileSync(new URL(`../dist/help/${words.join(':') || '_root'}.txt`, import.meta.url), 'utf8')
  } catch {
    text = undefined
  }
  if (text !== undefined) {
    process.stdout.write(text.replaceAll('{{runtime}}', `${process.platform}-${process.arch} node-${process.version}`))
    process.exit(0)
  }
}
const {execute} = await import('../dist/main.js')
await execute({dir: import.meta.url})
