import {describe, expect, it} from 'vitest'
import {shellCommand, shellQuote} from '../../../src/util/shell-quote.js'
import {execFileSync} from 'node:child_process'

describe('shellQuote: a printed command runs as printed', () => {
  it.each([
    ['a plain word stays bare', 'api', 'api'],
    ['a path and an endpoint stay bare', 'unix:///run/containerd/containerd.sock', 'unix:///run/containerd/containerd.sock'],
    ['an endpoint with a space is quoted', 'unix:///run/k n.sock', `'unix:///run/k n.sock'`],
    ['a space is quoted', '/tmp/my root', `'/tmp/my root'`],
    ['a single quote survives', "it's", `'it'\\''s'`],
    ['shell syntax is inert', '$(rm -rf /);x', `'$(rm -rf /);x'`],
    ['the empty string is an argument', '', `''`],
  ])('%s', (_, arg, want) => {
    expect(shellQuote(arg)).toBe(want)
  })

  it('a POSIX shell reads every argument back unchanged', () => {
    const args = ['kube-node', 'describe', 'pod', 'api', '--root-dir', "/tmp/a b'c", '--config', '$HOME/`x`;y']
    const echoed = execFileSync('sh', ['-c', `for a in ${shellCommand(args.slice(1))}; do printf '%s\\n' "$a"; done`], {encoding: 'utf8'})
    expect(echoed.split('\n').slice(0, -1)).toEqual(args.slice(1))
  })
})
