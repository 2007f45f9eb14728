#!/usr/bin/env node
// The import rules that no import shows (dependency-cruiser checks the rest): globals read by the
// pure modules and the core. `node scripts/check-globals.mjs [dir]` checks dir/src (default: this
// repository), prints one line per violation named by its rule, and exits 1 when there is any.
//   pure-modules-read-no-globals  the pure modules read no process.*, clock (Date.now, new Date()
//                                 without an argument, performance.now), timer or Math.random
//   core-reads-no-process         the core reads no process.* (node/ injects every value)
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join, relative, resolve} from 'node:path'
import ts from 'typescript'

const {PURE, CORE} = createRequire(import.meta.url)('./layer-paths.cjs')
const pure = PURE.map((p) => new RegExp(p))
const core = CORE.map((p) => new RegExp(p))

const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate'])
/** `Object.member` reads of a clock or randomness. */
const MEMBERS = new Set(['Date.now', 'Math.random', 'performance.now'])

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : walk(p)
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : []
  })
}

/** An identifier read as a value (not a property name, a declaration's name or a type). */
function isValueRead(id) {
  const parent = id.parent
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent)) && parent.name === id) return false
  if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent) || ts.isBindingElement(parent)) && parent.name === id) return false
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent)) return false
  return true
}

/** What a file reads of the globals the rules name: [what, node] pairs. */
function globalsRead(sf) {
  const found = []
  const visit = (node) => {
    // Types never read a value (`typeof setTimeout`, NodeJS.Timeout).
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return
    if (ts.isIdentifier(node) && isValueRead(node)) {
      if (node.text === 'process') found.push(['process', node])
      else if (TIMERS.has(node.text)) found.push([node.text, node])
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const name = `${node.expression.text}.${node.name.text}`
      if (MEMBERS.has(name)) found.push([name, node])
      // globalThis.process, globalThis.setTimeout: the same globals by another name.
      if (node.expression.text === 'globalThis' && (node.name.text === 'process' || TIMERS.has(node.name.text))) found.push([name, node])
    }
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'Date') {
      // `new Date(t)` converts a time it was given; `new Date()` and `Date()` read the clock.
      if (!ts.isNewExpression(node) || (node.arguments ?? []).length === 0) found.push([ts.isNewExpression(node) ? 'new Date()' : 'Date()', node])
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

export function checkGlobals(rootDir) {
  const violations = []
  for (const file of walk(join(rootDir, 'src'))) {
    const rel = relative(rootDir, file).split('\\').join('/')
    const isPure = pure.some((r) => r.test(rel))
    const isCore = core.some((r) => r.test(rel))
    if (!isPure && !isCore) continue
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    for (const [what, node] of globalsRead(sf)) {
      const {line, character} = sf.getLineAndCharacterOfPosition(node.getStart(sf))
      const where = `${rel}:${line + 1}:${character + 1}`
      if (isPure) violations.push({rule: 'pure-modules-read-no-globals', where, what})
      else if (what.includes('process')) violations.push({rule: 'core-reads-no-process', where, what})
    }
  }
  return violations
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const rootDir = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname)
  const violations = checkGlobals(rootDir)
  for (const v of violations) console.error(`error ${v.rule}: ${v.where} reads ${v.what}`)
  if (violations.length > 0) {
    console.error(`\n✘ ${violations.length} global read(s) the import rules forbid (ARCHITECTURE.md, Import rules)`)
    process.exit(1)
  }
  console.log('✔ no forbidden global reads')
}
