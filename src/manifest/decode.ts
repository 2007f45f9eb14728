// Text → Kubernetes objects. A location may hold one object, several `---`-separated YAML
// documents, or a v1 `List`/`PodList`; JSON is YAML too. Empty and comment-only documents are
// skipped (they still count in the document numbering, see where.ts). YAML is read as kubectl
// and the kubelet read it (go-yaml's YAML 1.1 rules: `0644` is octal, `yes` is true, `\'` is an
// apostrophe); see yaml-resolve.ts. Pure.
import {Composer, LineCounter, Parser, YAMLParseError, type CST, type Document} from 'yaml'
import type {FieldIssue} from '../util/errors.js'
import {isObject, show, typeName, type JsonObject} from '../util/check.js'
import {issueAt, type DocumentRef} from './where.js'
import {MAX_OBJECTS} from './limits.js'
import {prescan, prescanYaml} from './prescan.js'
import {doubleQuotedOver, NO_COST, objectsOver, type SourceCost} from './source-cost.js'
import {rewriteEscapes} from './yaml-escapes.js'
import {MAX_ALIAS_VALUES, yamlToJson, type AliasBudget} from './yaml-to-json.js'

export type DecodedKind = 'Pod' | 'ConfigMap' | 'Secret'

export interface DecodedObject {
  kind: DecodedKind
  ref: DocumentRef
  /** The object as written (not yet validated beyond apiVersion and kind). */
  object: JsonObject
}

export interface DecodeResult {
  objects: DecodedObject[]
  issues: FieldIssue[]
  /** What the objects returned cost their source (nothing when none are). */
  cost: SourceCost
  /** Refused only because its source has no room left beside its other locations. */
  sourceFull?: true
}

/** kubelet's hasJSONPrefix: after white space, a '{'. */
const JSON_TEXT = /^\s*\{/

const OBJECT_KINDS: readonly string[] = ['Pod', 'ConfigMap', 'Secret']

export {MAX_DOCUMENTS} from './limits.js'

/** Syntax errors reported per document: the first ones say what is wrong. */
const MAX_SYNTAX_ERRORS = 20

/** `spent`: what the other locations of the same source hold already (see source-cost.ts). */
export function decodeManifest(location: string, text: string, spent: SourceCost = NO_COST): DecodeResult {
  const objects: DecodedObject[] = []
  const issues: FieldIssue[] = []
  const refused = (message: string): DecodeResult => ({objects: [], issues: [issueAt({location, document: 0}, '', message)], cost: NO_COST})
  // Over a limit: refused before parsing, so a bomb of any shape costs milliseconds.
  const pre = prescan(text)
  if (pre.problem) return refused(pre.problem)
  const sourceFull = doubleQuotedOver(spent, pre.doubleQuoted)
  if (sourceFull) return {...refused(sourceFull), sourceFull: true}
  const lineCounter = new LineCounter()
  const docs = parseQuietly(() => parseDocuments(text, lineCounter))
  const aliases: AliasBudget = {left: MAX_ALIAS_VALUES}
  let aliasesSpent = false
  docs.forEach((doc, document) => {
    const ref: DocumentRef = {location, document}
    if (doc.errors.length > 0) {
      // One sentence per syntax error, the first few only; positions come from the line counter
      // (the library's own "pretty" errors cost a pass over the text each: quadratic in a file
      // of many errors).
      for (const err of doc.errors.slice(0, MAX_SYNTAX_ERRORS)) {
        const pos = lineCounter.linePos(err.pos[0])
        issues.push(issueAt(ref, '', `invalid YAML: ${firstLine(err.message)} at line ${pos.line}, column ${pos.col}`))
      }
      if (doc.errors.length > MAX_SYNTAX_ERRORS) issues.push(issueAt(ref, '', `invalid YAML: and ${doc.errors.length - MAX_SYNTAX_ERRORS} more syntax errors`))
      return
    }
    // Once the location's alias budget is spent, its other documents are not walked again.
    if (aliasesSpent) return
    const json = yamlToJson(doc, aliases)
    if ('message' in json) {
      const pos = lineCounter.linePos(json.offset)
      issues.push(issueAt(ref, '', `invalid YAML: ${json.message} at line ${pos.line}, column ${pos.col}`))
      if (aliases.left < 0) aliasesSpent = true
      return
    }
    if (json.value === null) return
    decodeValue(json.value, ref, objects, issues)
  })
  if (objects.length > MAX_OBJECTS) return refused(`holds ${objects.length} objects; at most ${MAX_OBJECTS} are allowed in one location`)
  const tooMany = objectsOver(spent, objects.length)
  if (tooMany) return {...refused(tooMany), sourceFull: true}
  return {objects, issues, cost: issues.length > 0 ? NO_COST : {doubleQuoted: pre.doubleQuoted, objects: objects.length}}
}

/**
 * The value of a one-document YAML text (a configuration file) read with the same rules and
 * limits as manifests, or the first problem as one sentence.
 */
export function decodeYamlValue(text: string): {value: unknown} | {problem: string} {
  const tooLarge = prescanYaml(text)
  if (tooLarge) return {problem: tooLarge}
  const lineCounter = new LineCounter()
  const docs = parseQuietly(() => parseDocuments(text, lineCounter))
  if (docs.length > 1) return {problem: 'must hold one YAML document'}
  const doc = docs[0]
  if (!doc) return {value: null}
  const err = doc.errors[0]
  if (err) {
    const pos = lineCounter.linePos(err.pos[0])
    return {problem: `invalid YAML: ${firstLine(err.message)} at line ${pos.line}, column ${pos.col}`}
  }
  const json = yamlToJson(doc)
  if ('message' in json) {
    const pos = lineCounter.linePos(json.offset)
    return {problem: `invalid YAML: ${json.message} at line ${pos.line}, column ${pos.col}`}
  }
  return {value: json.value}
}

/**
 * The documents of a YAML stream, every scalar kept as written: yaml-to-json.ts resolves them
 * with kubectl's rules, so the library's schema (failsafe, no known tags) decides nothing.
 * Duplicate keys are found by yaml-to-json.ts in linear time; the library's own check is quadratic.
 */
function parseDocuments(text: string, lineCounter: LineCounter): Document.Parsed[] {
  const parser = new Parser(lineCounter.addNewLine)
  const composer = new Composer({version: '1.1', schema: 'failsafe', resolveKnownTags: false, uniqueKeys: false, prettyErrors: false})
  const slashes: number[] = []
  function* tokens(): Generator<CST.Token> {
    for (const token of parser.parse(text)) {
      rewriteEscapes(token, slashes)
      yield token
    }
  }
  const docs = Array.from(composer.compose(tokens()))
  // Like the kubelet, text that starts with '{' is JSON, where `\/` is a valid escape.
  if (!JSON_TEXT.test(text)) {
    // Both lists in text order: one pass.
    slashes.sort((a, b) => a - b)
    let next = 0
    for (const doc of docs) {
      while (next < slashes.length && (slashes[next] ?? 0) < doc.range[0]) next++
      for (; next < slashes.length && (slashes[next] ?? 0) < doc.range[2]; next++) {
        const offset = slashes[next] ?? 0
        doc.errors.push(new YAMLParseError([offset, offset + 2], 'BAD_DQ_ESCAPE', 'Invalid escape sequence \\/ (YAML 1.1 has no such escape: write /)'))
      }
    }
  }
  return docs
}

/**
 * Runs the parser without stack traces on the errors it creates: a broken file can hold one
 * syntax error every few bytes, and capturing a stack for each costs more than parsing.
 */
function parseQuietly<T>(parse: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return parse()
  } finally {
    Error.stackTraceLimit = limit
  }
}

function decodeValue(value: unknown, ref: DocumentRef, objects: DecodedObject[], issues: FieldIssue[]): void {
  if (!isObject(value)) {
    issues.push(issueAt(ref, '', `must be a Kubernetes object with apiVersion and kind, got ${typeName(value)}`))
    return
  }
  const kind = value['kind']
  // The kind first: for a Deployment, "kind must be Pod" says more than "apiVersion must be v1".
  const isList = kind === 'List' || kind === 'PodList'
  if (!isList && !(typeof kind === 'string' && OBJECT_KINDS.includes(kind))) {
    issues.push(issueAt(ref, 'kind', kindMessage(kind)))
    return
  }
  if (!checkApiVersion(value, ref, issues)) return
  if (isList) decodeList(value, kind, ref, objects, issues)
  else objects.push({kind: kind as DecodedKind, ref, object: value})
}

function decodeList(list: JsonObject, kind: 'List' | 'PodList', ref: DocumentRef, objects: DecodedObject[], issues: FieldIssue[]): void {
  const items = list['items']
  if (items === undefined || items === null) return
  if (!Array.isArray(items)) {
    issues.push(issueAt(ref, 'items', `must be a list, got ${typeName(items)}`))
    return
  }
  if (items.length > MAX_OBJECTS) {
    issues.push(issueAt(ref, 'items', `has ${items.length} items; at most ${MAX_OBJECTS} objects are allowed in one location`))
    return
  }
  items.forEach((item: unknown, i) => {
    const itemRef: DocumentRef = {...ref, item: i}
    if (!isObject(item)) {
      issues.push(issueAt(itemRef, '', `must be an object, got ${typeName(item)}`))
      return
    }
    // A PodList's items may leave out apiVersion and kind (the API server writes them that way).
    if (kind === 'PodList' && item['kind'] === undefined && item['apiVersion'] === undefined) {
      objects.push({kind: 'Pod', ref: itemRef, object: item})
      return
    }
    if (item['kind'] === 'List' || item['kind'] === 'PodList') {
      issues.push(issueAt(itemRef, 'kind', `a ${String(item['kind'])} may not be nested in a ${kind}`))
      return
    }
    if (kind === 'PodList' && item['kind'] !== 'Pod') {
      issues.push(issueAt(itemRef, 'kind', `must be Pod in a PodList, got ${show(item['kind'])}`))
      return
    }
    decodeValue(item, itemRef, objects, issues)
  })
}

function checkApiVersion(obj: JsonObject, ref: DocumentRef, issues: FieldIssue[]): boolean {
  const v = obj['apiVersion']
  if (v === 'v1') return true
  issues.push(issueAt(ref, 'apiVersion', v === undefined || v === null || v === '' ? 'must be set to v1' : `must be v1, got ${show(v)}`))
  return false
}

function kindMessage(kind: unknown): string {
  if (kind === undefined || kind === null || kind === '') return 'must be set (Pod, List or PodList)'
  return `must be Pod, List or PodList (ConfigMap and Secret are also accepted), got ${show(kind)}`
}

/** The library's first line without its trailing ':' (the code frame follows), lower-case start. */
function firstLine(message: string): string {
  const line = (message.split('\n')[0] ?? message).replace(/:\s*$/, '')
  return line.charAt(0).toLowerCase() + line.slice(1)
}
