import {describe, expect, it} from 'vitest'
import {parseStartAfter, startAfterIssues, startAfterSyntaxError, type StartAfterPod} from '../../../src/manifest/start-after.js'

const p = (name: string, startAfter?: string, document = 0): StartAfterPod => ({
  manifestName: name,
  annotations: startAfter === undefined ? undefined : {'kube-node.io/start-after': startAfter},
  source: {location: `/etc/kube-node/${name}.yaml`, document},
})

describe('start-after annotation', () => {
  it.each<{value: string | undefined; want: string[]}>([
    {value: undefined, want: []},
    {value: 'etcd', want: ['etcd']},
    {value: ' etcd, kube-apiserver ,', want: ['etcd', 'kube-apiserver']},
    {value: 'etcd,etcd', want: ['etcd']},
  ])('parses $value', ({value, want}) => expect(parseStartAfter(value)).toEqual(want))

  it.each<{value: string; error: RegExp | undefined}>([
    {value: 'etcd, api', error: undefined},
    {value: ' , ', error: /must name at least one pod/},
    {value: 'etcd, Not_A_Name', error: /names pod "Not_A_Name", which is not a valid pod name/},
  ])('syntax of "$value"', ({value, error}) => {
    const got = startAfterSyntaxError(value)
    if (error) expect(got).toMatch(error)
    else expect(got).toBeUndefined()
  })

  it.each<{name: string; pods: StartAfterPod[]; issues: {location: string; message: RegExp}[]}>([
    {name: 'a chain is fine', pods: [p('etcd'), p('api', 'etcd'), p('ctl', 'etcd, api')], issues: []},
    {name: 'an unknown name', pods: [p('etcd'), p('api', 'etcd, db')], issues: [{location: '/etc/kube-node/api.yaml', message: /^names "db", which no manifest defines \(known pods: api, etcd\)$/}]},
    {name: 'a self-reference', pods: [p('api', 'api')], issues: [{location: '/etc/kube-node/api.yaml', message: /pod "api" names itself/}]},
    {
      name: 'a cycle is reported on every pod in it',
      pods: [p('a', 'b'), p('b', 'c'), p('c', 'a'), p('d', 'a')],
      issues: [
        {location: '/etc/kube-node/a.yaml', message: /forms a cycle: a → b → c → a; none of these pods could ever start/},
        {location: '/etc/kube-node/b.yaml', message: /b → c → a → b/},
        {location: '/etc/kube-node/c.yaml', message: /c → a → b → c/},
      ],
    },
  ])('$name', ({pods, issues}) => {
    const got = startAfterIssues(pods)
    expect(got.map((i) => ({location: i.location, field: i.field}))).toEqual(issues.map((i) => ({location: i.location, field: 'metadata.annotations["kube-node.io/start-after"]'})))
    got.forEach((g, n) => expect(g.message).toMatch(issues[n]!.message))
  })
})
