import {describe, expect, it} from 'vitest'
import {validateDockerSecret} from '../../../src/manifest/validate-docker-secret.js'

const b64 = (s: string): string => Buffer.from(s).toString('base64')

describe('validateDockerSecret (the API server\'s rules for docker-config Secrets)', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['an Opaque secret is not checked', {type: 'Opaque', data: {'.dockerconfigjson': b64('nope')}}, []],
    ['a valid dockerconfigjson in data', {type: 'kubernetes.io/dockerconfigjson', data: {'.dockerconfigjson': b64('{"auths": {}}')}}, []],
    ['a valid dockercfg in stringData', {type: 'kubernetes.io/dockercfg', stringData: {'.dockercfg': '{"r.io": {"auth": "eDp5"}}'}}, []],
    ['the key missing', {type: 'kubernetes.io/dockerconfigjson', data: {other: b64('{}')}}, ['data[.dockerconfigjson]: is required for a Secret of type kubernetes.io/dockerconfigjson']],
    ['not JSON, never quoted', {type: 'kubernetes.io/dockerconfigjson', data: {'.dockerconfigjson': b64('{"auths": hunter2')}}, ['data[.dockerconfigjson]: must hold a JSON object (the contents are not shown)']],
    ['JSON but not an object', {type: 'kubernetes.io/dockercfg', stringData: {'.dockercfg': '["hunter2"]'}}, ['stringData[.dockercfg]: must hold a JSON object (the contents are not shown)']],
    ['stringData wins over data', {type: 'kubernetes.io/dockerconfigjson', data: {'.dockerconfigjson': b64('{}')}, stringData: {'.dockerconfigjson': 'hunter2'}}, ['stringData[.dockerconfigjson]: must hold a JSON object (the contents are not shown)']],
  ])('%s', (_name, secret, want) => {
    const got: string[] = []
    validateDockerSecret((field, message) => got.push(`${field}: ${message}`), secret)
    expect(got.map((l) => l.replace(/\["?([^"\]]*)"?\]/, '[$1]'))).toEqual(want)
    for (const line of got) expect(line).not.toContain('hunter2')
  })
})
