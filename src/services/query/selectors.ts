// kubectl's `-l/--selector` and `--field-selector` for kube-node's own commands, parsed once into
// requirements and matched against a pod. The grammar is apimachinery's (labels/selector.go,
// fields/selector.go): `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, joined by
// commas. A malformed selector is invalid input (exit 2), named by its flag. Pure.
import {InvalidInputError} from '../../util/errors.js'
import {isLabelKey, isLabelValue, selectorTerms} from '../../util/selector-syntax.js'

export type LabelRequirement =
  | {op: 'eq' | 'neq'; key: string; value: string}
  | {op: 'in' | 'notin'; key: string; values: string[]}
  | {op: 'exists' | 'notexists'; key: string}

export interface FieldRequirement {
  field: string
  op: 'eq' | 'neq'
  value: string
}


function bad(flag: string, text: string, why: string): InvalidInputError {
  return new InvalidInputError(`${flag}: ${JSON.stringify(text)} is not a selector: ${why}`)
}

export function parseLabelSelector(text: string, flag = '--selector'): LabelRequirement[] {
  if (text.trim() === '') return []
  return selectorTerms(text).map((part): LabelRequirement => {
    if (part === '') throw bad(flag, text, 'an empty requirement between commas')
    const key = (k: string): string => {
      if (!isLabelKey(k)) throw bad(flag, text, `invalid label key ${JSON.stringify(k)}`)
      return k
    }
    const value = (v: string): string => {
      if (!isLabelValue(v)) throw bad(flag, text, `invalid label value ${JSON.stringify(v)}`)
      return v
    }
    const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part)
    if (set) {
      const values = set[3]!.split(',').map((v) => value(v.trim()))
      return {op: set[2] as 'in' | 'notin', key: key(set[1]!), values}
    }
    if (/\s(in|notin)\s*\(/.test(part)) throw bad(flag, text, `unclosed set in ${JSON.stringify(part)}`)
    const cmp = /^([^!=\s]+)\s*(==|!=|=)\s*(.*)$/.exec(part)
    if (cmp) return {op: cmp[2] === '!=' ? 'neq' : 'eq', key: key(cmp[1]!), value: value(cmp[3]!.trim())}
    if (part.startsWith('!')) return {op: 'notexists', key: key(part.slice(1).trim())}
    return {op: 'exists', key: key(part)}
  })
}

export function matchesLabels(selector: readonly LabelRequirement[], labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {}
  return selector.every((r) => {
    const v = Object.hasOwn(l, r.key) ? l[r.key] : undefined
    switch (r.op) {
      case 'eq':
        return v === r.value
      case 'neq':
        return v !== r.value
      case 'in':
        return v !== undefined && r.values.includes(v)
      case 'notin':
        return v === undefined || !r.values.includes(v)
      case 'exists':
        return v !== undefined
      case 'notexists':
        return v === undefined
    }
  })
}

/** Parses a field selector; every field must be one of `supported` (kubectl's list for the resource). */
export function parseFieldSelector(text: string, supported: readonly string[], resource = 'pods'): FieldRequirement[] {
  if (text.trim() === '') return []
  return selectorTerms(text).map((part) => {
    const m = /^([^!=\s]+)\s*(==|!=|=)\s*(.*)$/.exec(part)
    if (!m) throw bad('--field-selector', text, `expected field=value or field!=value in ${JSON.stringify(part)}`)
    const field = m[1]!
    if (!supported.includes(field)) {
      throw new InvalidInputError(`--field-selector: field ${JSON.stringify(field)} is not supported for ${resource}; use one of ${supported.join(', ')}`)
    }
    return {field, op: m[2] === '!=' ? 'neq' : 'eq', value: m[3]!.trim()}
  })
}

export {POD_FIELDS, podFields} from '../../util/pod-fields.js'

export function matchesFields(selector: readonly FieldRequirement[], fields: Readonly<Record<string, string>>): boolean {
  return selector.every((r) => ((fields[r.field] ?? '') === r.value) === (r.op === 'eq'))
}

