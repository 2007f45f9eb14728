import {describe, expect, it} from 'vitest'
import {prescanYaml} from '../../../src/manifest/prescan.js'
import {MAX_BLOCK_DEPTH, MAX_DOCUMENTS, MAX_FLOW_DEPTH, MAX_TOKENS} from '../../../src/manifest/limits.js'

describe('prescanYaml', () => {
  it.each([
    ['a normal pod', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n', undefined],
    ['exactly the document limit', 'x: 1\n---\n'.repeat(MAX_DOCUMENTS - 1) + 'x: 1\n', undefined],
    ['one document too many (---)', 'x: 1\n---\n'.repeat(MAX_DOCUMENTS) + 'x: 1\n', /more than 1000 YAML documents/],
    ['one document too many (...)', 'x: 1\n...\n'.repeat(MAX_DOCUMENTS + 1), /more than 1000 YAML documents/],
    ['empty documents do not count', '...\n'.repeat(MAX_DOCUMENTS * 2), undefined],
    ['flow nesting at the limit', '['.repeat(MAX_FLOW_DEPTH) + ']'.repeat(MAX_FLOW_DEPTH), undefined],
    ['flow nesting one deeper', '['.repeat(MAX_FLOW_DEPTH + 1), /nests \[ and \{ deeper than 100/],
    ['block nesting on one line', '- '.repeat(MAX_BLOCK_DEPTH + 1) + 'x\n', /nests YAML blocks deeper than 1000/],
    ['colons inside a flow map do not nest', `{${Array.from({length: MAX_BLOCK_DEPTH * 2}, (_, i) => `k${i}: v`).join(', ')}}\n`, undefined],
    ['a block scalar is one token, whatever its indentation', `k: |\n${`${' '.repeat(2000)}x\n`.repeat(10)}`, undefined],
    ['too many tokens', 'a: b\n'.repeat(MAX_TOKENS), /more than 100000 YAML tokens/],
    ['too much double-quoted text', `a: "${'x'.repeat(3 * 1024 * 1024)}"\n`, /more than 2 MiB of double-quoted strings/],
    ['single quotes cost nothing extra', `a: '${'x'.repeat(3 * 1024 * 1024)}'\n`, undefined],
  ])('%s', (_what, text, expected) => {
    const verdict = prescanYaml(text)
    if (expected === undefined) expect(verdict).toBeUndefined()
    else expect(verdict).toMatch(expected)
  })
})
