import {describe, expect, it} from 'vitest'
import type {Secret} from '../../../src/api/types.js'
import {credentialsFor, keyMatches, keyringFromSecrets, registryKey, repositoryOf} from '../../../src/images/keyring.js'

const b64 = (s: string): string => Buffer.from(s).toString('base64')

function dockerConfigJson(name: string, auths: Record<string, unknown>): Secret {
  return {apiVersion: 'v1', kind: 'Secret', metadata: {name}, type: 'kubernetes.io/dockerconfigjson', data: {'.dockerconfigjson': b64(JSON.stringify({auths}))}}
}

describe('registryKey (the kubelet keyring Add)', () => {
  it.each<[string, string | undefined]>([
    ['registry.example.com', 'registry.example.com'],
    ['https://registry.example.com', 'registry.example.com'],
    ['http://registry.example.com:5000/', 'registry.example.com:5000'],
    ['https://index.docker.io/v1/', 'index.docker.io'],
    ['https://quay.io/v2/coreos', 'quay.io/coreos'],
    ['quay.io/coreos/etcd', 'quay.io/coreos/etcd'],
    ['', undefined],
    ['https:///path', undefined],
  ])('%s → %s', (location, key) => {
    expect(registryKey(location)).toBe(key)
  })
})

describe('repositoryOf (the name credentials are looked up by)', () => {
  it.each([
    ['busybox', 'docker.io/library/busybox'],
    ['busybox:1.36', 'docker.io/library/busybox'],
    ['user/app@sha256:' + 'a'.repeat(64), 'docker.io/user/app'],
    ['index.docker.io/user/app', 'docker.io/user/app'],
    ['localhost:5000/busybox:latest', 'localhost:5000/busybox'],
    ['quay.io/coreos/etcd:v3', 'quay.io/coreos/etcd'],
  ])('%s → %s', (image, repo) => {
    expect(repositoryOf(image)).toBe(repo)
  })
})

describe('keyMatches (URLsMatch: host labels with globs, port, path prefix)', () => {
  it.each<[string, string, boolean]>([
    ['registry.example.com', 'registry.example.com/app', true],
    ['registry.example.com', 'other.example.com/app', false],
    ['*.example.com', 'registry.example.com/app', true],
    ['*.example.com', 'a.registry.example.com/app', false],
    ['*.*.com', 'registry.example.com/app', true],
    ['reg?stry.example.com', 'registry.example.com/app', true],
    ['registry.example.com:5000', 'registry.example.com/app', false],
    ['registry.example.com', 'registry.example.com:5000/app', false],
    ['localhost:5000', 'localhost:5000/busybox', true],
    ['quay.io/coreos', 'quay.io/coreos/etcd', true],
    ['quay.io/coreos', 'quay.io/other/etcd', false],
    // A plain string prefix, as the kubelet's strings.HasPrefix.
    ['quay.io/core', 'quay.io/coreos/etcd', true],
    ['docker.io', 'docker.io/library/busybox', true],
    ['index.docker.io', 'docker.io/library/busybox', false],
  ])('%s ~ %s → %s', (key, repo, want) => {
    expect(keyMatches(key, repo)).toBe(want)
  })
})

describe('credentialsFor', () => {
  const keyring = keyringFromSecrets([
    dockerConfigJson('regcred', {
      'quay.io': {username: 'quay-all', password: 'p1'},
      'quay.io/coreos': {auth: b64('quay-coreos:p2')},
      'https://index.docker.io/v1/': {username: 'hub', password: 'p3'},
      'localhost:5000': {auth: b64('local:pa:ss')},
    }),
    {apiVersion: 'v1', kind: 'Secret', metadata: {name: 'opaque'}, type: 'Opaque', data: {'.dockerconfigjson': b64('not json')}},
    {apiVersion: 'v1', kind: 'Secret', metadata: {name: 'legacy'}, type: 'kubernetes.io/dockercfg', stringData: {'.dockercfg': JSON.stringify({'*.example.com': {username: 'glob', password: 'p4'}})}},
  ])
  it.each<[string, string, string[]]>([
    ['the most specific key first, then the host', 'quay.io/coreos/etcd:v3', ['quay-coreos', 'quay-all']],
    ['the host alone', 'quay.io/other/app', ['quay-all']],
    ['auth decodes to user and password (split at the first colon)', 'localhost:5000/busybox:latest', ['local']],
    ['Docker Hub (index.docker.io) for a short name', 'busybox', ['hub']],
    ['Docker Hub for docker.io/…', 'docker.io/user/app:1', ['hub']],
    ['a dockercfg glob key', 'registry.example.com/app', ['glob']],
    ['no key matches → pull without', 'ghcr.io/owner/app', []],
  ])('%s', (_name, image, users) => {
    expect(credentialsFor(keyring, image).map((a) => a.username)).toEqual(users)
  })
  it('the password survives a colon in it', () => {
    expect(credentialsFor(keyring, 'localhost:5000/x')[0]).toEqual({username: 'local', password: 'pa:ss'})
  })
})

describe('keyringFromSecrets errors name the secret, never its content', () => {
  it.each<[string, Secret, RegExp]>([
    ['not JSON', {metadata: {name: 's'}, type: 'kubernetes.io/dockerconfigjson', stringData: {'.dockerconfigjson': '{"auths": hunter2'}}, /^imagePullSecret "s": \.dockerconfigjson is not valid JSON$/],
    ['auths not an object', {metadata: {name: 's'}, type: 'kubernetes.io/dockerconfigjson', stringData: {'.dockerconfigjson': '{"auths": ["hunter2"]}'}}, /must be a JSON object with an "auths" object/],
    ['an entry not an object', {metadata: {name: 's'}, type: 'kubernetes.io/dockercfg', stringData: {'.dockercfg': '{"r.io": "hunter2"}'}}, /the entry for registry "r\.io" must be an object/],
    ['auth without a colon', {metadata: {name: 's'}, type: 'kubernetes.io/dockerconfigjson', stringData: {'.dockerconfigjson': JSON.stringify({auths: {'r.io': {auth: b64('hunter2')}}})}}, /"auth" of registry "r\.io" is not base64 of username:password/],
  ])('%s', (_name, secret, message) => {
    expect(() => keyringFromSecrets([secret])).toThrow(message)
    try {
      keyringFromSecrets([secret])
    } catch (err) {
      expect(String(err)).not.toContain('hunter2')
      expect(String(err)).not.toContain(b64('hunter2'))
    }
  })
})
