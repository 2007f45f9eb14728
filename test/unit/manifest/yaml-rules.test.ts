// YAML read with kubectl's rules (go-yaml v2, YAML 1.1), one quirk per row. Every expected value
// here was printed by the real kubectl (`kubectl label --local -f F x=y -o json`);
// test/integration/manifest/yaml-kubectl.test.ts runs kubectl itself over the fixture files.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {decodeManifest} from '../../../src/manifest/decode.js'
import {MAX_ALIAS_VALUES} from '../../../src/manifest/yaml-to-json.js'
import {scanEscapes} from '../../../src/manifest/yaml-escapes.js'

const HEAD = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n'

/** The object decoded from a ConfigMap with `body` after its metadata, or its one issue. */
function decode(body: string): unknown {
  const r = decodeManifest('m.yaml', HEAD + body + '\n')
  if (r.issues.length > 0) return {issue: r.issues.map((i) => i.message).join('; ')}
  const {apiVersion: _a, kind: _k, metadata: _m, ...rest} = r.objects[0]?.object ?? {}
  return rest
}
const value = (text: string): unknown => {
  const r = decode(`v: ${text}`) as {v?: unknown; issue?: string}
  return 'issue' in r ? r : r.v
}

describe('scalars as kubectl reads them', () => {
  it.each<[string, unknown]>([
    // Octal and other integer forms (Go's ParseInt with base 0, underscores dropped).
    ['0644', 420], ['0o600', 384], ['0O17', 15], ['-0644', -420], ['00', 0], ['0_7', 7], ['08', 8],
    ['0x1F', 31], ['0X1f', 31], ['-0x1F', -31], ['+0x1F', 31], ['0x_1', 1], ['0b101', 5], ['0B11', 3], ['-0b11', -3], ['0b_1', 1],
    ['1_000', 1000], ['1__0', 10], ['-1_0', -10], ['+12', 12], ['-0', 0], ['0_', 0],
    ['9223372036854775808', 9223372036854775808], ['-9223372036854775809', -9223372036854775809],
    // Floats.
    ['1.5e3', 1500], ['1e3', 1000], ['1E3', 1000], ['1e+3', 1000], ['.5', 0.5], ['-.5', -0.5], ['1.', 1], ['0.', 0], ['1.0', 1],
    ['0.1_0', 0.1], ['1_000.5', 1000.5], ['0.0000000000000000000000000000000000000001e-400', 0],
    // Booleans: the YAML 1.1 words in the three spellings go-yaml knows.
    ['yes', true], ['Yes', true], ['YES', true], ['y', true], ['Y', true], ['on', true], ['On', true], ['ON', true], ['True', true], ['TRUE', true],
    ['no', false], ['n', false], ['N', false], ['off', false], ['oFF', 'oFF'], ['NO', false], ['False', false],
    ['yEs', 'yEs'], ['tRue', 'tRue'],
    // Null.
    ['~', null], ['null', null], ['Null', null], ['NULL', null], ['', null],
    // Strings that look like something else.
    ['2001-12-14', '2001-12-14'], ['2001-12-14t21:59:43.10-05:00', '2001-12-14t21:59:43.10-05:00'], ['2002-12-14T21:59:43Z', '2002-12-14T21:59:43Z'],
    ['1:20', '1:20'], ['190:20:30', '190:20:30'], ['1,000', '1,000'], ['_1', '_1'], ['0x', '0x'], ['0o', '0o'], ['+', '+'], ['.', '.'],
    ['1e400', '1e400'], ['NaN', 'NaN'], ['inf', 'inf'], ['=', '='], ['<<', '<<'],
    // Quoted scalars are strings, whatever they hold.
    ['"yes"', 'yes'], ["'0644'", '0644'], ["'it''s'", "it's"],
    // Escapes: go-yaml's `\'` is an apostrophe; the others as in YAML 1.2.
    [`"it\\'s"`, "it's"], [`"a\\\\'b"`, "a\\'b"], [`"\\x41\\u00e9\\U0001F600"`, 'Aé😀'], [`"\\N\\_\\L\\e\\ \\t"`, '\u0085\u00a0\u2028\u001b \t'],
    ["'it\\'", 'it\\'], ['a\\\'b', "a\\'b"], ['|\n    it\\\'s', "it\\'s\n"],
    // Explicit tags.
    ['!!str 0644', '0644'], ['!!str yes', 'yes'], ['!!int "0644"', 420], ['!!int "0x_1"', 1], ['!!float 1', 1], ['!!float 0644', 420], ['!!float "1_0"', 10],
    ['!!bool yes', true], ['!!null ""', null], ['!!null', null], ['!!str', ''], ['!!binary', ''], ['!!binary aGVsbG8=', 'hello'], ['!!binary //79', '\ufffd\ufffd\ufffd'],
    ['!!timestamp 2001-12-14', '2001-12-14'], ['!<tag:yaml.org,2002:int> "5"', 5], ['!!merge abc', 'abc'], ['!!foo 5', '5'], ['!foo bar', 'bar'], ['! 5', '5'], ['! yes', 'yes'],
    ['!!set {a, b}', {a: null, b: null}], ['!!omap [a: 1]', [{a: 1}]], ['!!pairs [a: 1, b: 2]', [{a: 1}, {b: 2}]], ['!!str [1]', [1]], ['!foo {a: 1}', {a: 1}],
  ])('%s', (text, expected) => {
    expect(value(text)).toEqual(expected)
  })
})

describe('map keys as kubectl writes them', () => {
  it('turns resolved keys into JSON keys the way sigs.k8s.io/yaml does', () => {
    const keys = ['yes: a', '0x1F: c', '1.5: d', '1e3: e', '2001-12-14: h', '1_0: i', '0.1: j', '1.0: k', '-0: m', '1e6: n',
      '1234567: o', '0.00001: p', '3.14159265358979: q', '1e20: s', '+2: t', '.inf: u', '"": v', 'off: w']
    expect(decode(`data:\n${keys.map((k) => `  ${k}`).join('\n')}`)).toEqual({data: {
      true: 'a', 1: 'k', 31: 'c', '1.5': 'd', 1000: 'e', '2001-12-14': 'h', 10: 'i', '0.1': 'j', 0: 'm', '1e+06': false,
      1234567: 'o', '1e-05': 'p', '3.1415927': 'q', '1e+20': 's', 2: 't', '.inf': 'u', '': 'v', false: 'w',
    }})
  })

  it('treats y: as the key "true" (YAML 1.1), as kubectl does', () => {
    expect(decode('y: 1\nn: 2')).toEqual({true: 1, false: 2})
  })
})

describe('anchors, aliases and merge keys', () => {
  it.each<[string, string, unknown]>([
    ['a merged map, a later key winning', 'x: &a {p: 1, q: 2}\ny:\n  <<: *a\n  q: 3', {x: {p: 1, q: 2}, true: {p: 1, q: 3}}],
    ['a list of maps, the first winning', 'x: &a {p: 1}\nz: &b {r: 1, p: 5}\nw:\n  <<: [*a, *b]\n  q: 3', {x: {p: 1}, z: {p: 5, r: 1}, w: {p: 1, q: 3, r: 1}}],
    ['a merge after a key overwrites it', 'w:\n  p: 3\n  <<: {p: 1}', {w: {p: 1}}],
    ['a key after a merge overwrites it', 'w:\n  <<: {p: 1}\n  p: 3', {w: {p: 3}}],
    ['a quoted << is an ordinary key', 'w:\n  "<<": {a: 1}', {w: {'<<': {a: 1}}}],
    ['!!merge and ! make a merge key', 'w:\n  !!merge <<: {a: 1}\nz:\n  ! <<: {b: 2}', {w: {a: 1}, z: {b: 2}}],
    ['an anchor inside an anchor', 'x: &a {b: &c {d: 1}}\nw:\n  <<: *c', {x: {b: {d: 1}}, w: {d: 1}}],
    ['an alias means the latest anchor before it', 'x: &a 1\nz: &a 2\nw: *a', {x: 1, z: 2, w: 2}],
    ['an alias keeps the anchor it saw, when copied later', 'x: &a 1\nz: &b [*a]\nq: &a 2\nw: *b', {x: 1, z: [1], q: 2, w: [1]}],
    ['an anchored scalar resolves like any scalar', 'x: &a yes\nw: *a', {x: true, w: true}],
    ['an anchor set inside a merge list', 'w:\n  <<: [&m {a: 1}, *m]\nv: *m', {w: {a: 1}, v: {a: 1}}],
    ['a merge inside a merged map', 'a: &a {x: 1, <<: {y: 2}}\nb: {<<: *a, z: 3}', {a: {true: 2, x: 1}, b: {true: 2, x: 1, z: 3}}],
    ['an alias of a scalar as a key', 'x: &a 5\nw:\n  *a : 1\nz: {&k yes : 1}\nq: {*k : 2}', {x: 5, w: {5: 1}, z: {true: 1}, q: {true: 2}}],
    ['shared env lists', 'e: &env [{name: A, value: "1"}]\nc: [{env: *env}, {env: *env}]', {e: [{name: 'A', value: '1'}], c: [{env: [{name: 'A', value: '1'}]}, {env: [{name: 'A', value: '1'}]}]}],
  ])('%s', (_what, body, expected) => {
    expect(decode(body)).toEqual(expected)
  })

  it('copies an alias, so changing one use changes no other', () => {
    const r = decodeManifest('m.yaml', `${HEAD}e: &e {a: 1}\nf: *e\n`).objects[0]?.object as {e: object; f: object}
    expect(r.e).toEqual(r.f)
    expect(r.e).not.toBe(r.f)
  })

  it('keeps a __proto__ key a key', () => {
    const r = decode('data:\n  __proto__: {polluted: "yes"}') as {data: Record<string, unknown>}
    expect(Object.keys(r.data)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})

describe('what kubectl refuses is refused, naming the line', () => {
  it.each<[string, string, RegExp]>([
    ['an unknown escape', 'v: "\\q"', /invalid YAML: invalid escape sequence \\q/i],
    ['\\/ in YAML (only JSON has it)', 'v: "a\\/b"', /invalid YAML: invalid escape sequence \\\/ .* at line 5, column 6/],
    ['\\\' in single quotes', "v: 'it\\'s'", /invalid YAML/],
    ['infinity', 'v: .inf', /invalid YAML: \.inf is not a number JSON can hold at line 5, column 4/],
    ['-infinity', 'v: -.INF', /-\.INF is not a number JSON can hold/],
    ['NaN', 'v: .NaN', /\.NaN is not a number JSON can hold/],
    ['a null key', 'data:\n  ~: a', /invalid YAML: a map key may not be null or empty at line 6, column 3/],
    ['an empty key', 'data: {? : a}', /a map key may not be null or empty/],
    ['a key past int64', 'data: {12345678901234567890: a}', /the key 12345678901234567890 is too large for a map key/],
    ['a list as a key', 'data: {[a]: 1}', /a mapping key must be a plain value, not a list or a map at line 5, column 8/],
    ['an alias of a map as a key', 'x: &m {a: 1}\ndata: {*m : 1}', /a mapping key must be a plain value, not a list or a map/],
    ['a merge of null', 'w:\n  <<: null', /invalid YAML: map merge requires map or sequence of maps as the value at line 6, column 7/],
    ['a merge of a scalar', 'w:\n  <<: 5', /map merge requires map or sequence of maps/],
    ['a merge of an empty value', 'w:\n  <<:', /map merge requires map or sequence of maps/],
    ['a merge of a list with a scalar', 'w:\n  <<: [{a: 1}, 2]', /map merge requires map or sequence of maps/],
    ['a merge of an alias of a list', 'x: &a [1]\nw:\n  <<: *a', /map merge requires map or sequence of maps/],
    ['a tagged int that is no int', 'v: !!int abc', /invalid YAML: cannot decode !!str `abc` as a !!int at line 5, column 10/],
    ['an empty !!int', 'v: !!int', /cannot decode !!null `` as a !!int/],
    ['a tagged float that is no float', 'v: !!float abc', /cannot decode !!str `abc` as a !!float/],
    ['a tagged bool that is no bool', 'v: !!bool 1', /cannot decode !!int `1` as a !!bool/],
    ['a tagged null that is not null', 'v: !!null abc', /cannot decode !!str `abc` as a !!null/],
    ['a tagged timestamp that is no date', 'v: !!timestamp abc', /cannot decode !!str `abc` as a !!timestamp/],
    ['bad base64', 'v: !!binary "!!!"', /!!binary value contains invalid base64 data/],
    ['an unknown anchor', 'v: *a', /unresolved alias \(the anchor must be set before the alias\): a/],
    ['tabs as indentation', 'data:\n\ta: 1', /invalid YAML: tabs are not allowed as indentation/],
  ])('%s', (_what, body, expected) => {
    expect((decode(body) as {issue?: string}).issue).toMatch(expected)
  })

  // kubectl --local keeps the last of two equal keys, but the API server's strict field
  // validation (kubectl's default since 1.27) refuses them; kube-node refuses them too.
  it.each([
    ['the same key twice', 'data:\n  a: 1\n  a: 2'],
    ['the same key written twice as a number and a string', 'data:\n  1: a\n  "1": b'],
    ['y and true, the same key once resolved', 'data:\n  y: a\n  true: b'],
    ['0x10 and 16', 'data:\n  0x10: a\n  16: b'],
  ])('refuses %s', (_what, body) => {
    expect((decode(body) as {issue?: string}).issue).toMatch(/invalid YAML: map keys must be unique at line 7, column 3/)
  })

  it('reports \\/ in the document that holds it, once per string, after any \\\' rewrite', () => {
    const text = `${HEAD}data: {a: "it\\'s"}\n---\n${HEAD}data: {a: "x\\'\\/\\/", b: "\\/"}\n---\n${HEAD}data: {c: 'a\\/b'}\n`
    expect(decodeManifest('m.yaml', text).issues.map((i) => `${i.document}: ${i.message}`)).toEqual([
      '1: invalid YAML: invalid escape sequence \\/ (YAML 1.1 has no such escape: write /) at line 11, column 15',
      '1: invalid YAML: invalid escape sequence \\/ (YAML 1.1 has no such escape: write /) at line 11, column 26',
    ])
  })

  it('accepts \\/ in a JSON text, as the kubelet reads JSON as JSON', () => {
    const r = decodeManifest('m.json', JSON.stringify({apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'x'}, data: {u: 'a/b'}}).replace('a/b', 'a\\/b'))
    expect(r.issues).toEqual([])
    expect(r.objects[0]?.object['data']).toEqual({u: 'a/b'})
  })
})

describe('bounds', () => {
  it('refuses aliases that expand past MAX_ALIAS_VALUES, quickly', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`)
    const started = Date.now()
    expect((decode(lines.join('\n')) as {issue?: string}).issue).toMatch(`invalid YAML: aliases expand to more than ${MAX_ALIAS_VALUES} values`)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('refuses a bomb of merge keys', () => {
    const lines = ['m0: &m0 {k0: 1, k1: 1, k2: 1, k3: 1, k4: 1, k5: 1, k6: 1, k7: 1, k8: 1, k9: 1}']
    for (let i = 1; i < 12; i++) lines.push(`m${i}: &m${i} {${Array.from({length: 10}, (_, j) => `n${j}: *m${i - 1}`).join(', ')}}`)
    expect((decode(lines.join('\n')) as {issue?: string}).issue).toMatch(/aliases expand to more than/)
  })

  it('accepts many small aliases, as real manifests use them', () => {
    const body = `e: &e {name: A, value: "1"}\nl: [${Array(1000).fill('*e').join(', ')}]`
    expect((decode(body) as {l: unknown[]}).l).toHaveLength(1000)
  })
})

describe('scanEscapes', () => {
  it.each<[string, string, number | undefined]>([
    ['"plain"', '"plain"', undefined],
    [`"it\\'s"`, `"it's"`, undefined],
    [`"a\\\\'b"`, `"a\\\\'b"`, undefined],
    [`"\\'\\'"`, `"''"`, undefined],
    [`"a\\/b"`, `"a\\/b"`, 2],
    [`"\\'\\/"`, `"'\\/"`, 3],
    [`"a\\\\/b"`, `"a\\\\/b"`, undefined],
  ])('%s', (source, expected, slash) => {
    expect(scanEscapes(source)).toEqual({source: expected, slash})
  })
})

describe('only JSON comes out', () => {
  /** Is v made of plain objects, arrays, strings, finite numbers, booleans and null only? */
  const isJson = (v: unknown): boolean => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return true
    if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0)
    if (Array.isArray(v)) return v.every(isJson)
    if (typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false
    return Object.values(v).every(isJson)
  }
  const piece = fc.constantFrom(
    '!!binary ', '!!set ', '!!omap ', '!!pairs ', '!!timestamp ', '!!int ', '!!float ', '!!str ', '!!null ', '!foo ', '! ', '&a ', '*a', '<<: ',
    '2001-12-14', '2001-12-14T21:59:43Z', '.inf', '-.Inf', '.nan', '0644', '0o7', '0x1F', '1_0', 'yes', 'off', '~', '-0.0', '1e400', 'aGVsbG8=',
    '"\\\'"', '"\\/"', "'\\'", '[', ']', '{', '}', ', ', ': ', '- ', '\n', '\n  ', '? ', 'k', 'v',
  )
  it('decodes YAML 1.1 look-alikes into plain JSON values or issues', () => {
    fc.assert(
      fc.property(fc.array(piece, {maxLength: 40}), (parts) => {
        const r = decodeManifest('q.yaml', `${HEAD}data:\n  x: ${parts.join('')}\n`)
        for (const o of r.objects) expect(isJson(o.object)).toBe(true)
        for (const i of r.issues) expect(i.message.length).toBeGreaterThan(0)
      }),
      {numRuns: 500},
    )
  }, 30_000)
})
