// The env-file parser of fileKeyRef, one row per rule of the kubelet's ParseEnv, and the API's
// rules for the key and the path.
import {describe, expect, it} from 'vitest'
import {envFileKeyError, envFilePathError, envFileRefs, lookupEnvFileKey} from '../../../src/kuberuntime/env-file.js'

describe('lookupEnvFileKey', () => {
  it.each<[string, string, string, ReturnType<typeof lookupEnvFileKey>]>([
    ['a plain line', 'KEY=value\n', 'KEY', {found: true, value: 'value'}],
    ['the last line without a newline', 'A=1\nKEY=value', 'KEY', {found: true, value: 'value'}],
    ['an empty file', '', 'KEY', {found: false}],
    ['a key no line names', 'A=1\nB=2\n', 'KEY', {found: false}],
    ['a key that is only a prefix of a name', 'KEYS=1\n', 'KEY', {found: false}],
    ['names are case-sensitive', 'key=1\n', 'KEY', {found: false}],
    ['an empty value', 'KEY=\n', 'KEY', {found: true, value: ''}],
    ['only the first = splits', 'KEY=a=b==c\n', 'KEY', {found: true, value: 'a=b==c'}],
    ['blanks around the name and the value', '  KEY \t=  spaced value \t\n', 'KEY', {found: true, value: 'spaced value'}],
    ['leading tabs', '\t\tKEY=v\n', 'KEY', {found: true, value: 'v'}],
    ['blank and whitespace-only lines are skipped', '\n   \n\t\nKEY=v\n', 'KEY', {found: true, value: 'v'}],
    ['comment lines are skipped', '# KEY=commented\n  # also\nKEY=v\n', 'KEY', {found: true, value: 'v'}],
    ['a # after the value is part of it', 'KEY=v # not a comment\n', 'KEY', {found: true, value: 'v # not a comment'}],
    ['double quotes are kept', 'KEY="quoted value"\n', 'KEY', {found: true, value: '"quoted value"'}],
    ["single quotes are kept", "KEY='quoted'\n", 'KEY', {found: true, value: "'quoted'"}],
    ['no escapes inside quotes', 'KEY="a\\nb"\n', 'KEY', {found: true, value: '"a\\nb"'}],
    ['no $ expansion', 'A=1\nKEY=$A-${A}\n', 'KEY', {found: true, value: '$A-${A}'}],
    ['CRLF line ends', 'A=1\r\nKEY=value\r\nB=2\r\n', 'KEY', {found: true, value: 'value'}],
    ['a CR inside a line is trimmed at the end of the value', 'KEY=value\r\r\n', 'KEY', {found: true, value: 'value'}],
    ['the first of duplicate keys wins', 'KEY=first\nKEY=second\n', 'KEY', {found: true, value: 'first'}],
    ['lines after the key are not read', 'KEY=v\nthis is not valid\n', 'KEY', {found: true, value: 'v'}],
    ['a continued line joins with one space', 'KEY=part one \\\n   part two\n', 'KEY', {found: true, value: 'part one part two'}],
    ['three continued lines', 'KEY=a\\\nb \\\n c\n', 'KEY', {found: true, value: 'a b c'}],
    ['a continued name', 'KE\\\nY=v\n', 'KEY', {found: false}],
    ['a backslash inside a value stays', 'KEY=C:\\dir\\x\n', 'KEY', {found: true, value: 'C:\\dir\\x'}],
    ['an export prefix is part of the name', 'export KEY=v\n', 'KEY', {found: false}],
    ['Unicode spaces Go trims around a value', 'KEY=\u00a0v\u3000\n', 'KEY', {found: true, value: 'v'}],
    ['a BOM is not a space (Go keeps it in the name)', '\ufeffKEY=v\n', 'KEY', {found: false}],
    ['UTF-8 values', 'KEY=grüße 日本\n', 'KEY', {found: true, value: 'grüße 日本'}],
  ])('%s', (_name, text, key, expected) => {
    expect(lookupEnvFileKey(text, key)).toEqual(expected)
  })

  it.each<[string, string, RegExp]>([
    ['a line without =', 'A=1\njust words\nKEY=v\n', /^line 2: not a NAME=VALUE line$/],
    ['an empty name', '=value\nKEY=v\n', /^line 1: the name before '=' is empty$/],
    ['a blank name', '   =value\nKEY=v\n', /^line 1: the name before '=' is empty$/],
    ['a blank line inside a continuation', 'A=1 \\\n\nKEY=v\n', /^line 2: blank line inside a continued line$/],
    ['a comment inside a continuation', 'A=1 \\\n# c\nKEY=v\n', /^line 2: comment inside a continued line$/],
    ['the end of the file inside a continuation', 'A=1\nB=2 \\\n', /^the file ends inside a continued line$/],
    ['a NUL in the value', 'KEY=a\0b\n', /^line 1: the value contains a NUL character$/],
  ])('refuses %s', (_name, text, message) => {
    const r = lookupEnvFileKey(text, 'KEY')
    expect('error' in r && r.error).toMatch(message)
  })

  it('never quotes the file in its errors (the file may hold secrets)', () => {
    const r = lookupEnvFileKey('s3cr3t-without-equals\n', 'KEY')
    expect(JSON.stringify(r)).not.toContain('s3cr3t')
  })
})

describe('envFileKeyError', () => {
  it.each<[string, string | undefined]>([
    ['DB_ADDRESS', undefined],
    ['my.key-1', undefined],
    ['with space', undefined],
    ['1STARTS_WITH_DIGIT', undefined],
    ['K'.repeat(128), undefined],
    ['K'.repeat(129), 'must be no more than 128 characters, got 129'],
    ['A=B', "must not contain '='"],
    ['tab\there', 'must consist of printable ASCII characters'],
    ['ümlaut', 'must consist of printable ASCII characters'],
    ['new\nline', 'must consist of printable ASCII characters'],
  ])('%j → %j', (key, expected) => {
    expect(envFileKeyError(key)).toBe(expected)
  })
})

describe('envFilePathError', () => {
  it.each<[string, string | undefined]>([
    ['config.env', undefined],
    ['dir/config.env', undefined],
    ['./config.env', undefined],
    ['..config', "must not start with '..'"],
    ['../etc/shadow', "must not contain '..'"],
    ['a/../../b', "must not contain '..'"],
    ['a/..', "must not contain '..'"],
    ['/etc/shadow', 'must be a relative path'],
    ['a\0b', 'must not contain a NUL character'],
    ['.', 'must name a file'],
    ['./', 'must name a file'],
    ['x'.repeat(4097), 'must be no more than 4096 characters, got 4097'],
  ])('%j → %j', (path, expected) => {
    expect(envFilePathError(path)).toBe(expected)
  })
})

describe('envFileRefs', () => {
  it('lists each (volume, path) once, in spec order, skipping other sources', () => {
    const ref = (volumeName: string, path: string, key: string) => ({name: key, valueFrom: {fileKeyRef: {volumeName, path, key}}})
    expect(envFileRefs([ref('a', 'x.env', 'K1'), {name: 'V', valueFrom: {}}, ref('b', 'x.env', 'K2'), ref('a', 'x.env', 'K3'), ref('a', 'y.env', 'K4')])).toEqual([
      {volumeName: 'a', path: 'x.env'},
      {volumeName: 'b', path: 'x.env'},
      {volumeName: 'a', path: 'y.env'},
    ])
    expect(envFileRefs(undefined)).toEqual([])
  })
})
