// kubectl's `-o jsonpath=TEMPLATE` (client-go util/jsonpath), the subset its users write: text
// with `{…}` actions; paths `.a.b`, `$`, `@`, `..name`, `.*`, `['key']`, `[n]`, `[a:b]`, `[*]`,
// unions `[0,1]`, filters `[?(@.a=="x")]` (==, !=, <, <=, >, >=, or existence), `{range …}` …
// `{end}` and string literals `{"\n"}`. Several results of one action are joined by a space; a
// string prints as itself, anything else as JSON. Missing keys print nothing, as kubectl's default
// --allow-missing-template-keys does. Pure: parse once, then apply to any value.
import {InvalidInputError} from '../../util/errors.js'

type Segment =
  | {kind: 'root'}
  | {kind: 'field'; name: string}
  | {kind: 'all'}
  | {kind: 'recursive'}
  | {kind: 'index'; indices: number[]}
  | {kind: 'keys'; names: string[]}
  | {kind: 'slice'; start?: number | undefined; end?: number | undefined; step?: number | undefined}
  | {kind: 'filter'; left: Segment[]; op?: string | undefined; right?: unknown}

type Node = {kind: 'text'; text: string} | {kind: 'path'; path: Segment[]} | {kind: 'range'; path: Segment[]; body: Node[]}

export interface JsonPathTemplate {
  readonly nodes: readonly Node[]
}

function fail(template: string, why: string): InvalidInputError {
  return new InvalidInputError(`jsonpath template ${JSON.stringify(template)} is not valid: ${why}`)
}

/** Splits the template into text and `{…}` actions (braces inside quotes do not count). */
function actions(template: string): Array<{text: string} | {action: string}> {
  const out: Array<{text: string} | {action: string}> = []
  let i = 0
  let text = ''
  while (i < template.length) {
    const ch = template[i]!
    if (ch !== '{') {
      text += ch
      i++
      continue
    }
    if (text) out.push({text})
    text = ''
    let j = i + 1
    let quote: string | undefined
    for (; j < template.length; j++) {
      const c = template[j]!
      if (quote) {
        if (c === '\\') j++
        else if (c === quote) quote = undefined
      } else if (c === '"' || c === "'") quote = c
      else if (c === '}') break
    }
    if (j >= template.length) throw fail(template, 'unclosed action')
    out.push({action: template.slice(i + 1, j).trim()})
    i = j + 1
  }
  if (text) out.push({text})
  return out
}

function literal(text: string, template: string): unknown {
  const t = text.trim()
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t)
  if (t === 'true' || t === 'false') return t === 'true'
  if (/^'.*'$/s.test(t)) return t.slice(1, -1)
  if (/^".*"$/s.test(t)) {
    try {
      return JSON.parse(t) as unknown
    } catch {
      throw fail(template, `bad string ${t}`)
    }
  }
  throw fail(template, `unrecognized value ${t}`)
}

/** Parses a path such as `.items[*].metadata.name` into segments. */
function parsePath(text: string, template: string): Segment[] {
  const segs: Segment[] = []
  let i = 0
  if (text[0] === '$') segs.push({kind: 'root'})
  if (text[0] === '$' || text[0] === '@') i = 1
  const name = (): string => {
    let n = ''
    while (i < text.length && !'.[ '.includes(text[i]!)) {
      if (text[i] === '\\' && i + 1 < text.length) i++
      n += text[i]!
      i++
    }
    return n
  }
  while (i < text.length) {
    const ch = text[i]!
    if (ch === '.') {
      if (text[i + 1] === '.') {
        segs.push({kind: 'recursive'})
        i += 2
        if (text[i] === '[') continue
      } else i++
      if (text[i] === '*') {
        segs.push({kind: 'all'})
        i++
        continue
      }
      const n = name()
      if (n) segs.push({kind: 'field', name: n})
      continue
    }
    if (ch === '[') {
      let depth = 0
      let j = i
      let quote: string | undefined
      for (; j < text.length; j++) {
        const c = text[j]!
        if (quote) {
          if (c === quote) quote = undefined
        } else if (c === '"' || c === "'") quote = c
        else if (c === '[') depth++
        else if (c === ']' && --depth === 0) break
      }
      if (j >= text.length) throw fail(template, `unclosed [ in ${text}`)
      segs.push(parseBracket(text.slice(i + 1, j).trim(), template))
      i = j + 1
      continue
    }
    throw fail(template, `unexpected ${JSON.stringify(ch)} in ${text}`)
  }
  return segs
}

function parseBracket(inner: string, template: string): Segment {
  if (inner === '*') return {kind: 'all'}
  if (inner.startsWith('?(') && inner.endsWith(')')) {
    const expr = inner.slice(2, -1).trim()
    const m = /^(@[^\s=!<>]*)\s*(==|!=|<=|>=|<|>)\s*(.+)$/s.exec(expr)
    if (m) return {kind: 'filter', left: parsePath(m[1]!, template), op: m[2]!, right: literal(m[3]!, template)}
    if (/^@\S*$/.test(expr)) return {kind: 'filter', left: parsePath(expr, template)}
    throw fail(template, `unsupported filter ${inner}`)
  }
  if (/^['"]/.test(inner)) return {kind: 'keys', names: inner.split(',').map((s) => String(literal(s, template)))}
  if (inner.includes(':')) {
    const [a, b, c] = inner.split(':').map((s) => (s.trim() === '' ? undefined : Number(s.trim())))
    if ([a, b, c].some((n) => n !== undefined && !Number.isInteger(n))) throw fail(template, `bad slice [${inner}]`)
    return {kind: 'slice', start: a, end: b, step: c}
  }
  const indices = inner.split(',').map((s) => Number(s.trim()))
  if (indices.some((n) => !Number.isInteger(n))) throw fail(template, `bad index [${inner}]`)
  return {kind: 'index', indices}
}

export function parseJsonPath(template: string): JsonPathTemplate {
  const root: Node[] = []
  const stack: Node[][] = [root]
  for (const part of actions(template)) {
    const top = stack[stack.length - 1]!
    if ('text' in part) {
      top.push({kind: 'text', text: part.text})
      continue
    }
    const a = part.action
    if (a === 'end') {
      if (stack.length === 1) throw fail(template, '{end} without {range}')
      stack.pop()
    } else if (a.startsWith('range ')) {
      const node: Node = {kind: 'range', path: parsePath(a.slice(6).trim(), template), body: []}
      top.push(node)
      stack.push(node.body)
    } else if (/^["']/.test(a)) top.push({kind: 'text', text: String(literal(a, template))})
    else if (a === '') throw fail(template, 'empty action {}')
    else top.push({kind: 'path', path: parsePath(a, template)})
  }
  if (stack.length > 1) throw fail(template, '{range} without {end}')
  return {nodes: root}
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v
  if (isObject(v)) return Object.values(v)
  return []
}

function descendants(v: unknown): unknown[] {
  return [v, ...children(v).flatMap(descendants)]
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b
    case '!=':
      return a !== b
  }
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false
  const x = a as number | string
  const y = b as number | string
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y
}

function step(values: unknown[], seg: Segment, root: unknown): unknown[] {
  switch (seg.kind) {
    case 'root':
      return [root]
    case 'field':
      return values.flatMap((v) => (isObject(v) && Object.hasOwn(v, seg.name) ? [v[seg.name]] : []))
    case 'keys':
      return values.flatMap((v) => (isObject(v) ? seg.names.filter((n) => Object.hasOwn(v, n)).map((n) => v[n]) : []))
    case 'all':
      return values.flatMap(children)
    case 'recursive':
      return values.flatMap(descendants)
    case 'index':
      return values.flatMap((v) => (Array.isArray(v) ? seg.indices.map((n) => v[n < 0 ? v.length + n : n]).filter((x) => x !== undefined) : []))
    case 'slice':
      return values.flatMap((v) => {
        if (!Array.isArray(v)) return []
        const norm = (n: number | undefined, d: number): number => (n === undefined ? d : n < 0 ? Math.max(0, v.length + n) : Math.min(n, v.length))
        const out: unknown[] = []
        for (let k = norm(seg.start, 0); k < norm(seg.end, v.length); k += seg.step ?? 1) out.push(v[k])
        return out
      })
    case 'filter':
      return values.flatMap(children).filter((item) => {
        const got = evaluate(item, seg.left, root)
        if (seg.op === undefined) return got.length > 0
        return got.some((g) => compare(g, seg.op!, seg.right))
      })
  }
}

function evaluate(value: unknown, path: readonly Segment[], root: unknown): unknown[] {
  return path.reduce<unknown[]>((vals, seg) => step(vals, seg, root), [value])
}

function show(v: unknown): string {
  if (typeof v === 'string') return v
  return JSON.stringify(v) ?? ''
}

function render(nodes: readonly Node[], current: unknown, root: unknown, esc: (s: string) => string): string {
  return nodes
    .map((n) => {
      if (n.kind === 'text') return n.text
      if (n.kind === 'path') return evaluate(current, n.path, root).map((v) => esc(show(v))).join(' ')
      // In a range, `.x` is relative to the element; `$` (a path that starts at the root) is not.
      return evaluate(current, n.path, root)
        .map((item) => render(n.body, item, root, esc))
        .join('')
    })
    .join('')
}

/**
 * The template applied to `value`, as kubectl prints it. `escape` is applied to each value found
 * (not to the template's own text, whose "\n" the user wrote).
 */
export function applyJsonPath(t: JsonPathTemplate, value: unknown, escape: (s: string) => string = (s) => s): string {
  return render(t.nodes, value, value, escape)
}

/** Values a single path finds (for custom-columns). */
export function findAll(t: JsonPathTemplate, value: unknown): unknown[] {
  const only = t.nodes.length === 1 ? t.nodes[0] : undefined
  return only?.kind === 'path' ? evaluate(value, only.path, value) : [applyJsonPath(t, value)]
}
