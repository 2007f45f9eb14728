// -o jsonpath and -o custom-columns as kubectl prints them, on a PodList and on one Pod.
import {describe, expect, it} from 'vitest'
import {applyJsonPath, parseJsonPath} from '../../../src/cli/render/jsonpath.js'
import {parseCustomColumns, renderCustomColumns} from '../../../src/cli/render/custom-columns.js'
import {InvalidInputError} from '../../../src/util/errors.js'

const list = {
  kind: 'PodList',
  items: [
    {metadata: {name: 'web-n1', namespace: 'default', labels: {app: 'web', 'app.kubernetes.io/name': 'w'}}, status: {phase: 'Running', podIP: '10.0.0.2', containerStatuses: [{name: 'nginx', restartCount: 1}, {name: 'side', restartCount: 0}]}},
    {metadata: {name: 'db-n1', namespace: 'prod'}, status: {phase: 'Pending', containerStatuses: [{name: 'pg', restartCount: 3}]}},
  ],
}

describe('-o jsonpath', () => {
  it.each([
    ['{.items[*].metadata.name}', 'web-n1 db-n1'],
    ['{.items[0].metadata.name}', 'web-n1'],
    ['{.items[-1].metadata.name}', 'db-n1'],
    ['{.items[0:1].metadata.name}', 'web-n1'],
    ['{.items[0,1].status.phase}', 'Running Pending'],
    ["{.items[0].metadata.labels['app.kubernetes.io/name']}", 'w'],
    ['{.items[0].metadata.labels.app\\.kubernetes\\.io/name}', 'w'],
    ['{.items[?(@.status.phase=="Running")].metadata.name}', 'web-n1'],
    ['{.items[?(@.status.phase!="Running")].metadata.name}', 'db-n1'],
    ['{.items[?(@.status.podIP)].metadata.name}', 'web-n1'],
    ['{.items[*].status.containerStatuses[?(@.restartCount>0)].name}', 'nginx pg'],
    ['{..podIP}', '10.0.0.2'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}', 'web-n1\tRunning\ndb-n1\tPending\n'],
    ['{range .items[*]}[{.metadata.namespace}/{.metadata.name}] {end}', '[default/web-n1] [prod/db-n1] '],
    ['{.items[0].metadata.labels}', '{"app":"web","app.kubernetes.io/name":"w"}'],
    ['{.items[1].status.podIP}', ''],
    ['{.kind}: {.items[1].metadata.name}', 'PodList: db-n1'],
    ['{$.kind}', 'PodList'],
  ])('%s', (template, expected) => {
    expect(applyJsonPath(parseJsonPath(template), list)).toBe(expected)
  })

  it('on one Pod, paths start at the Pod', () => {
    expect(applyJsonPath(parseJsonPath('{.status.phase}'), list.items[0])).toBe('Running')
  })

  it('escapes the values it prints, not the text of the template', () => {
    const t = parseJsonPath('{.a}{"\\n"}')
    expect(applyJsonPath(t, {a: 'x\u001b[2Jy'}, (s) => s.replace(/\u001b/g, '\\x1b'))).toBe('x\\x1b[2Jy\n')
  })

  it.each(['{.items[', '{range .items[*]}{.a}', '{end}', '{.items[x]}', '{}'])('refuses %s as invalid input', (template) => {
    expect(() => parseJsonPath(template)).toThrow(InvalidInputError)
  })
})

describe('-o custom-columns', () => {
  it('prints a header and one row per pod; a missing value is <none>, several are joined by commas', () => {
    const columns = parseCustomColumns('NAME:.metadata.name,NS:metadata.namespace,IP:{.status.podIP},CONTAINERS:.status.containerStatuses[*].name')
    expect(renderCustomColumns(columns, list.items)).toBe(
      ['NAME     NS        IP         CONTAINERS', 'web-n1   default   10.0.0.2   nginx,side', 'db-n1    prod      <none>     pg', ''].join('\n'),
    )
  })

  it.each(['', 'NAME', 'NAME:', ':.metadata.name'])('refuses %j', (spec) => {
    expect(() => parseCustomColumns(spec)).toThrow(InvalidInputError)
  })
})
