#!/usr/bin/env node
// Measures the shape of src/: files and lines per folder, the ten longest functions, and the
// deep reaches through shared dependency objects (`deps.x.deps`), so a reshaping can be judged by
// numbers anyone can recompute: `node scripts/house-metrics.mjs [--json]`.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'
import ts from 'typescript'

const root = new URL('..', import.meta.url).pathname
const src = join(root, 'src')

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? (name === 'generated' ? [] : walk(p)) : p.endsWith('.ts') ? [p] : []
  })
}

const files = walk(src)
const folders = new Map()
const functions = []
let deepReaches = 0
const reachSites = []

for (const file of files) {
  const text = readFileSync(file, 'utf8')
  const rel = relative(src, file)
  const folder = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.'
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  const f = folders.get(folder) ?? {files: 0, lines: 0}
  f.files += 1
  f.lines += lines
  folders.set(folder, f)

  // A deep reach: code that walks through a dependency bag into another bag to find what it
  // needs (this.deps.sync.deps.runtime.runtime, node.runtime.runtime, ctx.deps.fs): a chain of four
  // or more names that passes through `deps` or a wrapper's own `.runtime`.
  for (const m of text.matchAll(/(?<![\w.])(?:this\.)?[A-Za-z_]\w*(?:\??\.[A-Za-z_]\w*){2,}/g)) {
    const chain = m[0].replace(/^this\./, '').replaceAll('?.', '.').split('.')
    const throughDeps = chain.slice(0, -2).includes('deps') && chain.length >= 4
    const doubled = chain.some((n, i) => i > 0 && n === chain[i - 1] && (n === 'runtime' || n === 'deps'))
    if (throughDeps || doubled) {
      deepReaches += 1
      reachSites.push(`${rel}: ${m[0]}`)
    }
  }

  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const visit = (node, owner) => {
    let name
    if (ts.isFunctionDeclaration(node) && node.name) name = node.name.text
    else if (ts.isMethodDeclaration(node) && node.name) name = `${owner}.${node.name.getText(sf)}`
    else if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(sf)
    if (name && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line
      functions.push({name, file: rel, lines: end - start + 1})
    }
    const nextOwner = ts.isClassDeclaration(node) && node.name ? node.name.text : owner
    ts.forEachChild(node, (c) => visit(c, nextOwner))
  }
  visit(sf, '')
}

functions.sort((a, b) => b.lines - a.lines)
const result = {
  folders: Object.fromEntries([...folders].sort(([a], [b]) => a.localeCompare(b))),
  totals: {files: files.length, lines: [...folders.values()].reduce((n, f) => n + f.lines, 0)},
  longestFunctions: functions.slice(0, 10),
  deepReaches,
  reachSites,
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2))
} else {
  console.log('folder          files  lines')
  for (const [name, f] of Object.entries(result.folders)) console.log(`${name.padEnd(15)} ${String(f.files).padStart(5)} ${String(f.lines).padStart(6)}`)
  console.log(`${'total'.padEnd(15)} ${String(result.totals.files).padStart(5)} ${String(result.totals.lines).padStart(6)}`)
  console.log('\nlongest functions')
  for (const f of result.longestFunctions) console.log(`${String(f.lines).padStart(4)}  ${f.name} (${f.file})`)
  console.log(`\ndeep reaches (deps.x.deps): ${deepReaches}`)
  for (const s of reachSites) console.log(`  ${s}`)
}
