// buildEnv with valueFrom.fileKeyRef: the env files come in through EnvContext.envFiles (the
// apply step reads them); one row per outcome.
import {describe, expect, it} from 'vitest'
import type {EnvVar} from '../../../src/api/types.js'
import {buildEnv} from '../../../src/kuberuntime/env.js'
import type {EnvFileStore} from '../../../src/kuberuntime/env-file.js'
import {ConfigError} from '../../../src/kuberuntime/errors.js'
import {makeContainer, podOf} from '../../support/pods.js'

const files = (byPath: Record<string, string>): EnvFileStore => ({text: (volume, path) => byPath[`${volume}/${path}`]})
const ref = (name: string, key: string, extra: {path?: string; optional?: boolean} = {}): EnvVar => ({
  name,
  valueFrom: {fileKeyRef: {volumeName: 'config', path: extra.path ?? 'config.env', key, ...(extra.optional === undefined ? {} : {optional: extra.optional})}},
})
const build = (env: EnvVar[], store?: EnvFileStore) => buildEnv(podOf(), makeContainer({env}), {podIP: '10.0.0.1', envFiles: store})

describe('buildEnv with fileKeyRef', () => {
  const store = files({'config/config.env': 'DB_ADDRESS=db.local:5432\nREST_ENDPOINT=http://api\nEMPTY=\n', 'config/bad.env': 'no equals sign\n'})

  it.each<[string, EnvVar[], {key: string; value: string}[]]>([
    ['a key of the file', [ref('DB', 'DB_ADDRESS')], [{key: 'DB', value: 'db.local:5432'}]],
    ['two keys of one file', [ref('A', 'DB_ADDRESS'), ref('B', 'REST_ENDPOINT')], [{key: 'A', value: 'db.local:5432'}, {key: 'B', value: 'http://api'}]],
    ['a key with an empty value is set, empty', [ref('E', 'EMPTY')], [{key: 'E', value: ''}]],
    ['a missing optional key leaves the variable out', [ref('M', 'MISSING', {optional: true}), {name: 'X', value: 'x'}], [{key: 'X', value: 'x'}]],
    ['a missing optional file leaves the variable out', [ref('M', 'K', {path: 'absent.env', optional: true})], []],
    ['a later value may refer to it', [ref('DB', 'DB_ADDRESS'), {name: 'URL', value: 'pg://$(DB)/app'}], [{key: 'DB', value: 'db.local:5432'}, {key: 'URL', value: 'pg://db.local:5432/app'}]],
    ['the value itself is never expanded', [ref('R', 'REST_ENDPOINT')], [{key: 'R', value: 'http://api'}]],
  ])('%s', (_name, env, expected) => {
    expect(build(env, store)).toEqual(expected)
  })

  it.each<[string, EnvVar[], string]>([
    ['a missing required key', [ref('M', 'MISSING')], 'couldn\'t find key MISSING in env file "config.env" in volume "config"'],
    ['a missing required key (optional: false)', [ref('M', 'MISSING', {optional: false})], 'couldn\'t find key MISSING in env file "config.env" in volume "config"'],
    ['a missing required file', [ref('M', 'K', {path: 'absent.env'})], 'couldn\'t find env file "absent.env" in volume "config"'],
    ['an unparsable file, even when optional', [ref('M', 'K', {path: 'bad.env', optional: true})], 'couldn\'t parse env file "bad.env" in volume "config": line 1: not a NAME=VALUE line'],
  ])('%s fails the container with ConfigError', (_name, env, message) => {
    expect(() => build(env, store)).toThrow(ConfigError)
    expect(() => build(env, store)).toThrow(message)
  })

  it('without any env file read, a required reference fails and an optional one is left out', () => {
    expect(() => build([ref('A', 'K')])).toThrow(ConfigError)
    expect(build([ref('A', 'K', {optional: true})])).toEqual([])
  })
})
