import {describe, expect, it} from 'vitest'
import {buildManifests} from '../../../src/manifest/build.js'
import {formatIssue} from '../../../src/util/errors.js'
import type {ValidationMode} from '../../../src/manifest/unknown-fields.js'

const pod = (volume: string, securityContext = '') => `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: busybox
${securityContext}    volumeMounts: [{name: v, mountPath: /v}]
  volumes:
  - name: v
${volume}`

function issues(text: string, validate: ValidationMode = 'warn'): {issues: string[]; warnings: string[]} {
  const r = buildManifests([{location: 'p.yaml', source: 'file', text}], {nodeName: 'n', validate})
  return {issues: r.issues.map(formatIssue), warnings: r.warnings.map(formatIssue)}
}

describe('emptyDir.mode (Kubernetes v1.37) before the schema knows it', () => {
  it('is an unknown field under --validate=strict that names its release and feature', () => {
    expect(issues(pod('    emptyDir: {mode: 01777}\n'), 'strict').issues).toEqual([
      expect.stringMatching(/^p\.yaml, document 0, field spec\.volumes\[0\]\.emptyDir\.mode: unknown field \(not in the Kubernetes v1\.\d+ API\): emptyDir's mode, .*EmptyDirVolumeMode, KEP-5502, alpha in Kubernetes v1\.37.*--validate=warn$/),
    ])
  })

  it.each([
    ['0', '0'],
    ['01777 (sticky, rwx for all)', '01777'],
    ['0750', '0750'],
  ])('is accepted with --validate=warn: %s', (_what, mode) => {
    expect(issues(pod(`    emptyDir: {mode: ${mode}}\n`)).issues).toEqual([])
  })

  it.each([
    ['above 01777 (setuid)', '04777', '2559'],
    ['negative', '-1', '-1'],
    ['not an integer', '"0777"', '"0777"'],
  ])('is refused when %s, as the API server does', (_what, mode, shown) => {
    expect(issues(pod(`    emptyDir: {mode: ${mode}}\n`)).issues).toEqual([
      `p.yaml, document 0, field spec.volumes[0].emptyDir.mode: must be a number between 0 and 01777 (octal; 1023 in decimal), both inclusive, got ${shown}`,
    ])
  })
})

describe('securityContext.cgroupOptions (Kubernetes v1.38)', () => {
  const sc = '    securityContext:\n      cgroupOptions: {mountMode: ReadWrite}\n'
  it.each<ValidationMode>(['strict', 'warn', 'ignore'])('is refused with the feature it needs, once, under --validate=%s', (mode) => {
    const r = issues(pod('    emptyDir: {}\n', sc), mode)
    expect(r.issues).toEqual([expect.stringMatching(/^p\.yaml, document 0, field spec\.containers\[0\]\.securityContext\.cgroupOptions: is not supported: .*CgroupOptions, KEP-5474.*pod cgroups/)])
    expect(r.warnings).toEqual([])
  })
})
