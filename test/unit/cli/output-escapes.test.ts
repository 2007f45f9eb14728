// -o json and -o yaml carry text from manifests and the runtime: a bidi override, DEL or a C1
// control is written in the format's own escapes (never raw to a terminal), and a parser reads
// back exactly the value that went in.
import {describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import {toJson, toYaml} from '../../../src/cli/render/output.js'

const NASTY = ['evil\u202Egnp.exe', 'del\u007F', 'csi\u009B31m', 'nel\u0085x', 'isolate\u2067x\u2069', 'mark\u200F', 'bell\u0007\u001B[2J', 'line\nnext', 'plain é ü 中']
const value = {metadata: {name: 'web', annotations: Object.fromEntries(NASTY.map((s, i) => [`a${i}`, s])), labels: {'k\u202E': 'v'}}, list: NASTY}
const RAW = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

describe('-o json and -o yaml escape what a terminal would obey', () => {
  it('json: no raw control or bidi character, and JSON.parse gives the value back', () => {
    const text = toJson(value)
    expect(text).not.toMatch(RAW)
    expect(text).toContain('evil\\u202egnp.exe')
    expect(JSON.parse(text)).toEqual(value)
  })

  it('yaml: such strings are double-quoted with escapes, and a YAML parser gives the value back', () => {
    const text = toYaml(value)
    expect(text).not.toMatch(RAW)
    expect(text).toContain('a0: "evil\\u202egnp.exe"')
    expect(text).toContain('"k\\u202e": v')
    expect(parse(text)).toEqual(value)
  })

  it('yaml: text with nothing to escape is written as before', () => {
    expect(toYaml({a: 'plain é', b: 'x: y', c: 1})).toBe('a: plain é\nb: "x: y"\nc: 1\n')
  })
})
