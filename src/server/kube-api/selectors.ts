// Label and field selectors as kubectl sends them (`-l app=web,tier in (a,b),!canary`,
// `--field-selector status.phase=Running,metadata.name!=x`), parsed once into requirements and
// matched against an object. The grammar is apimachinery's (labels/selector.go, fields/selector.go),
// without the rarely used `<`/`>`. Pure.
import {badRequest} from './status.js'
import {isLabelKey, isLabelValue, selectorTerms} from '../../util/selector-syntax.js'

export type LabelRequirement =
  | {op: 'eq' | 'neq'; key: string; value: string}
  | {op: 'in' | 'notin'; key: string; values: string[]}
  | {op: 'exists' | 'notexists'; key: string}

export type LabelSelector = LabelRequirement[]


function checkKey(key: string): string {
  if (!isLabelKey(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}"`)
  return key
}

function checkValue(value: string): string {
  if (!isLabelValue(value)) throw badRequest(`unable to parse requirement: invalid label value "${value}"`)
  return value
}

export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (!text) return []
  return selectorTerms(text).filter((p) => p !== '').map((part): LabelRequirement => {
    const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part)
    if (set) {
      const values = set[3]!.split(',').map((v) => checkValue(v.trim()))
      return {op: set[2] as 'in' | 'notin', key: checkKey(set[1]!), values}
    }
    const cmp = /^([^!=\s]+)\s*(==|!=|=)\s*(.*)$/.exec(part)
    if (cmp) return {op: cmp[2] === '!=' ? 'neq' : 'eq', key: checkKey(cmp[1]!), value: checkValue(cmp[3]!.trim())}
    if (part.startsWith('!')) return {op: 'notexists', key: checkKey(part.slice(1).trim())}
    return {op: 'exists', key: checkKey(part)}
  })
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {}
  return selector.every((r) => {
    const has = Object.hasOwn(l, r.key)
    const v = has ? l[r.key] : undefined
    switch (r.op) {
      case 'eq':
        return has && v === r.value
      case 'neq':
        return !has || v !== r.value
      case 'in':
        return has && r.values.includes(v!)
      case 'notin':
        return !has || !r.values.includes(v!)
      case 'exists':
        return has
      case 'notexists':
        return !has
    }
  })
}

export interface FieldRequirement {
  field: string
  op: 'eq' | 'neq'
  value: string
}

export type FieldSelector = FieldRequirement[]

/** Parses a field selector and checks every field is one the resource supports. */
export function parseFieldSelector(text: string | undefined, supported: ReadonlySet<string>): FieldSelector {
  if (!text) return []
  return selectorTerms(text).filter((p) => p !== '').map((part) => {
    const m = /^([^!=\s]+)\s*(==|!=|=)\s*(.*)$/.exec(part)
    if (!m) throw badRequest(`invalid selector: '${part}'; can't understand '${part}'`)
    const field = m[1]!
    if (!supported.has(field)) throw badRequest(`field label not supported: ${field}`)
    return {field, op: m[2] === '!=' ? 'neq' : 'eq', value: m[3]!.trim()}
  })
}

export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return selector.every((r) => ((fields[r.field] ?? '') === r.value) === (r.op === 'eq'))
}
