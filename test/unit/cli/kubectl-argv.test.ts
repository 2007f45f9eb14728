// The command line as kubectl users type it: resource spellings, `help COMMAND`, and one-sentence
// errors with a suggestion for what kube-node does not know.
import {describe, expect, it} from 'vitest'
import {closest, kubectlArgv} from '../../../src/cli/kubectl-argv.js'
import {usageSentence} from '../../../src/cli/usage-errors.js'

const commands = {
  names: ['get pods', 'get pod', 'get po', 'ps', 'describe pod', 'describe po', 'delete pod', 'events', 'logs', 'exec', 'run', 'plan', 'validate', 'version', 'watch', 'down'],
  valueFlags: new Set(['-n', '--namespace', '-o', '--root-dir']),
  noArgs: new Map([
    ['run', {filename: true}],
    ['version', {filename: false}],
  ]),
}
const read = (line: string): unknown => kubectlArgv(line.split(' ').filter(Boolean), commands, 'kube-node')

describe('kubectl spellings', () => {
  it.each([
    ['get pods', ['get', 'pods']],
    ['get po', ['get', 'pods']],
    ['get pod/etcd', ['get', 'pods', 'etcd']],
    ['get pods/etcd -o json', ['get', 'pods', 'etcd', '-o', 'json']],
    ['get pod etcd -n kube-system', ['get', 'pods', 'etcd', '-n', 'kube-system']],
    ['get events', ['events']],
    ['get ev -w', ['events', '-w']],
    ['describe pods etcd', ['describe', 'pod', 'etcd']],
    ['describe po/etcd', ['describe', 'pod', 'etcd']],
    ['delete pods x y', ['delete', 'pod', 'x', 'y']],
    ['delete pod/x', ['delete', 'pod', 'x']],
    ['logs pod/web -f', ['logs', 'pod/web', '-f']],
    ['get -n kube-system pods', ['get', 'pods', '-n', 'kube-system']],
    ['get -A -o wide po', ['get', 'pods', '-A', '-o', 'wide']],
    ['get --help', ['get', '--help']],
    ['get --root-dir /tmp/x pods', ['get', 'pods', '--root-dir', '/tmp/x']],
    ['help run', ['run', '--help']],
    ['help get pods', ['get', 'pods', '--help']],
    ['help describe pods', ['describe', 'pod', '--help']],
    ['help', ['--help']],
    ['help get', ['get', '--help']],
    ['--version', ['--version']],
    ['', []],
  ])('%s', (line, argv) => {
    expect(read(line)).toEqual({argv})
  })
})

describe('one sentence with a suggestion', () => {
  it.each([
    ['desribe pod x', 'unknown command "desribe"; did you mean kube-node describe? (kube-node --help lists the commands)'],
    ['lgs web', 'unknown command "lgs"; did you mean kube-node logs? (kube-node --help lists the commands)'],
    ['frobnicate', 'unknown command "frobnicate" (kube-node --help lists the commands)'],
    ['get nodes', 'kube-node get knows pods and events, not "nodes"; try kube-node get pods'],
    ['get pds', 'kube-node get knows pods and events, not "pds"; did you mean kube-node get pods?'],
    ['describe svc/x', 'kube-node describe knows pods, not "svc"; try kube-node describe pods'],
    ['get', 'kube-node get needs a resource type: pods or events, e.g. kube-node get pods'],
    ['delete -n x', 'kube-node delete needs a resource type: pods, e.g. kube-node delete pods'],
    ['etcd.yaml', '"etcd.yaml" is not a command; to run a manifest use kube-node run -f etcd.yaml'],
    ['run etcd.yaml', 'kube-node run takes manifests with -f: kube-node run -f etcd.yaml'],
    ['version x', 'kube-node version takes no argument (got "x"); see kube-node help version'],
  ])('%s', (line, error) => {
    expect(read(line)).toEqual({error})
  })

  it('escapes what the user typed', () => {
    expect(read('x\u001b[2J')).toEqual({error: expect.not.stringContaining('\u001b')})
  })

  it('suggests only close names', () => {
    expect(closest('dscribe', ['describe', 'delete'])).toBe('describe')
    expect(closest('zzzz', ['describe', 'delete'])).toBeUndefined()
  })
})

describe("oclif's usage errors in kube-node's words", () => {
  const ctx = {command: 'kube-node logs', flags: ['container', 'follow', 'namespace']}
  it.each([
    ['Missing 1 required arg:\npod  Pod name\nSee more help with --help', 'kube-node logs needs the POD argument; see kube-node logs --help'],
    ['Unexpected argument: x\nSee more help with --help', 'kube-node logs takes no argument "x"; see kube-node logs --help'],
    ['Nonexistent flag: --namspace\nSee more help with --help', 'kube-node logs has no flag --namspace; did you mean --namespace? (see kube-node logs --help)'],
    ['Nonexistent flag: -x\nSee more help with --help', 'kube-node logs has no flag -x (see kube-node logs --help)'],
  ])('%j', (message, sentence) => {
    expect(usageSentence(message, ctx)).toBe(sentence)
  })

  it('leaves other errors alone', () => {
    expect(usageSentence('pod "x" not found', ctx)).toBeUndefined()
  })
})
