#!/usr/bin/env node
// What kube-node makes of a directory of someone else's Pod manifests: one line per file, saying
// whether it validates, is refused (a field a standalone node cannot honour, with the reason) or
// is invalid (the first error), and with --run whether it runs on the real runtime. It asks the
// built CLI (bin/run.js) exactly as a user would, so the answer is the product's, not a model of it.
//
//   npm run build && node bench/fields.mjs DIR [--run] [--timeout 60s] [--kube-node bin/run.js] [-- GLOBAL-FLAGS…]
//
//   DIR          searched recursively for *.yaml, *.yml and *.json (symbolic links are not followed)
//   --run        also `run` each valid file (and `down` it afterwards) on the runtime kube-node
//                is pointed at: prints `runs` or `does not run: <reason>`. This starts the
//                manifests' containers on this host: only for manifests you would run anyway.
//   --timeout    run's --timeout for each file (default 60s)
//   -- FLAGS     global flags for every kube-node call, e.g. -- --runtime-endpoint unix:///run/x.sock
//                --root-dir /tmp/kn --node-name test
//
// Ends with a summary line. Exit code 0 whatever the verdicts; 2 on bad usage. The manifests are
// not trusted: each file is opened without following a link and handed to kube-node on standard
// input (`-f -`), so its name never reaches a command line, a shell or kube-node's messages; every
// file name and message is printed with control and bidirectional-override characters escaped.
import {spawnSync} from 'node:child_process'
import {closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const MANIFEST = /\.(ya?ml|json)$/i
/** Past this, a message is cut: one line per file, whatever a manifest makes kube-node say. */
const MAX_MESSAGE = 400
/** Larger files are not read: kube-node refuses manifests far smaller than this anyway. */
const MAX_FILE = 64 * 1024 * 1024

function usage(problem) {
  process.stderr.write(`fields: ${problem}\nusage: node bench/fields.mjs DIR [--run] [--timeout 60s] [--kube-node bin/run.js] [-- GLOBAL-FLAGS…]\n`)
  process.exit(2)
}

let parsed
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      run: {type: 'boolean', default: false},
      timeout: {type: 'string', default: '60s'},
      'kube-node': {type: 'string', default: join(REPO, 'bin/run.js')},
      help: {type: 'boolean', short: 'h', default: false},
    },
  })
} catch (err) {
  usage(err.message)
}
const {values: flags, positionals} = parsed
if (flags.help) {
  process.stdout.write('Prints, for each Pod manifest under DIR, whether kube-node validates, refuses or runs it (see the top of bench/fields.mjs).\n')
  process.exit(0)
}
// parseArgs keeps what follows `--` as positionals after the directory.
const [dir, ...globals] = positionals
if (dir === undefined) usage('a directory is required')
if (!/^\d+(ms|s|m|h)$/.test(flags.timeout)) usage(`--timeout must be a duration such as 60s, got ${clean(flags.timeout)}`)
const root = resolve(dir)
const kubeNode = resolve(flags['kube-node'])

/** A string safe to print on a terminal: control, bidi-override and line-separator characters escaped, length capped. */
function clean(s) {
  const escaped = String(s).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu, (c) => {
    const code = c.codePointAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
  return escaped.length > MAX_MESSAGE ? `${escaped.slice(0, MAX_MESSAGE)}…` : escaped
}

/** Every manifest file under `top`, sorted, without following links; links and specials are reported, not read. */
function manifests(top) {
  const found = []
  const walk = (d) => {
    let entries
    try {
      entries = readdirSync(d, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    } catch (err) {
      found.push({path: d, skip: `unreadable directory (${err.code ?? err.message})`})
      return
    }
    for (const e of entries) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (MANIFEST.test(e.name)) {
        if (e.isSymbolicLink()) found.push({path: p, skip: 'a symbolic link, not followed'})
        else if (!e.isFile()) found.push({path: p, skip: 'not a regular file'})
        else found.push({path: p})
      }
    }
  }
  let st
  try {
    st = lstatSync(top)
  } catch (err) {
    usage(`${clean(top)}: ${err.code ?? err.message}`)
  }
  if (!st.isDirectory()) usage(`${clean(top)} is not a directory`)
  walk(top)
  return found
}

/** A regular file's bytes, opened without following a link (it may have been swapped for one since the listing). */
function readManifest(path) {
  let fd
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
    const st = fstatSync(fd)
    if (!st.isFile()) return {skip: 'not a regular file'}
    if (st.size > MAX_FILE) return {skip: `larger than ${MAX_FILE} bytes`}
    const buf = Buffer.alloc(st.size)
    let off = 0
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off)
      if (n === 0) break
      off += n
    }
    return {bytes: buf.subarray(0, off)}
  } catch (err) {
    return {skip: `unreadable (${err.code ?? err.message})`}
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** kube-node reading the manifest from standard input: argv entries only (no shell), colour off, bounded in time and output. */
function kn(args, bytes, timeoutMs) {
  const r = spawnSync(process.execPath, [kubeNode, ...args, ...globals], {
    encoding: 'utf8',
    env: {...process.env, NO_COLOR: '1'},
    input: bytes,
    timeout: timeoutMs,
    killSignal: 'SIGINT',
    maxBuffer: 64 * 1024 * 1024,
  })
  return {code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error}
}

/** The problems kube-node printed about its standard input (`<stdin>`), as `document 0, field spec.x: message`. */
function problems(stderr) {
  return [...stderr.matchAll(/^\s*(?:error:\s*)?<stdin>, (document \d+.*)$/gm)].map((m) => m[1])
}

/** The first line of an error that names no document. */
function firstLine(text) {
  return text.split('\n').map((l) => l.replace(/^\s*(error:\s*)?/, '')).find((l) => l.trim() !== '') ?? ''
}

/** `validates`, `refused: …` or `invalid: …` for one file. */
function validate(bytes) {
  const r = kn(['validate', '-f', '-'], bytes, 120_000)
  if (r.code === 0) return {verdict: 'validates'}
  if (r.error) return {verdict: 'invalid', why: `kube-node validate did not finish: ${r.error.message}`}
  const found = problems(r.stderr)
  // A field a standalone node cannot honour says more than a typo next to it: the pod can never run here.
  const refusal = found.find((p) => p.includes(': is not supported'))
  if (refusal) return {verdict: 'refused', why: refusal}
  return {verdict: 'invalid', why: found[0] || firstLine(r.stderr) || `exit code ${r.code}`}
}

/** Why a `run -o json` result did not reach its goal: the failure report's reason, else the status. */
function runFailure(r) {
  try {
    const list = JSON.parse(r.stdout)
    for (const pod of list.items ?? []) {
      const report = pod.metadata?.annotations?.['kube-node.io/failure-report']
      if (report) {
        const rep = JSON.parse(report)
        const container = (rep.containers ?? []).find((c) => c.state)
        return `${pod.metadata.name}: ${rep.reason}${container ? ` (${container.name}: ${container.state})` : ''}`
      }
    }
  } catch {
    // Not JSON: the CLI failed before it had a result; its error says why.
  }
  return problems(r.stderr)[0] || firstLine(r.stderr) || `exit code ${r.code}`
}

/** `runs` or `does not run: …`; the pods are brought down again either way. */
function runAndDown(bytes) {
  const ms = parseDuration(flags.timeout)
  const r = kn(['run', '-f', '-', '--timeout', flags.timeout, '-o', 'json'], bytes, ms + 120_000)
  const down = kn(['down', '-f', '-'], bytes, 300_000)
  const downNote = down.code === 0 ? '' : `; down failed: ${firstLine(down.stderr) || `exit code ${down.code}`}`
  if (r.code === 0) return {verdict: 'runs', why: downNote.slice(2) || undefined}
  return {verdict: 'does not run', why: `${runFailure(r)}${downNote}`}
}

function parseDuration(d) {
  const [, n, unit] = /^(\d+)(ms|s|m|h)$/.exec(d)
  return Number(n) * {ms: 1, s: 1000, m: 60_000, h: 3_600_000}[unit]
}

const counts = new Map()
const files = manifests(root)
for (const f of files) {
  const name = clean(relative(root, f.path) || f.path)
  const read = f.skip ? f : readManifest(f.path)
  let result
  if (read.skip) result = {verdict: 'skipped', why: read.skip}
  else {
    result = validate(read.bytes)
    if (flags.run && result.verdict === 'validates') result = runAndDown(read.bytes)
  }
  counts.set(result.verdict, (counts.get(result.verdict) ?? 0) + 1)
  process.stdout.write(`${name}: ${result.verdict}${result.why ? `: ${clean(result.why)}` : ''}\n`)
}
const order = ['validates', 'runs', 'does not run', 'refused', 'invalid', 'skipped']
const summary = order.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`)
process.stdout.write(`summary: ${files.length} file${files.length === 1 ? '' : 's'}${summary.length ? `: ${summary.join(', ')}` : ''}\n`)
