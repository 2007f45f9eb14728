// Fields the runtime must support, against the real containerd 1.6 on a host without AppArmor:
// `run` refuses each one the runtime lacks with its sentence (visible in get and describe) and
// leaves nothing behind, while the fallbacks (recursiveReadOnly: IfPossible, AppArmor Unconfined)
// run. `validate` accepts all of them: they are valid pods.
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {BUSYBOX, NODE, ctrContainersWithLabel, kn, makeDirs, podYaml, writeManifest} from './support.js'

const dirs = makeDirs()
const POD_NAME_LABEL = 'io.kubernetes.pod.name'

/** The test pod with `spec` lines added, and `container` lines added to its one container. */
function podWith(name: string, spec: string, container = ''): string {
  return podYaml(name).replace('spec:\n', `spec:\n${spec}`) + container
}

const CASES: [string, string, string, string, string][] = [
  ['userns', '  hostUsers: false\n', '', 'UserNamespacesNotSupported', 'spec.hostUsers: false needs user namespaces, which the runtime (containerd 1.6'],
  ['sgp', '  securityContext: {supplementalGroups: [5], supplementalGroupsPolicy: Strict}\n', '', 'SupplementalGroupsPolicyNotSupported', 'spec.securityContext.supplementalGroupsPolicy: Strict needs the supplemental_groups_policy feature, which the runtime (containerd 1.6'],
  ['rro', '  volumes: [{name: d, emptyDir: {}}]\n', '    volumeMounts: [{name: d, mountPath: /d, readOnly: true, recursiveReadOnly: Enabled}]\n', 'RecursiveReadOnlyMountsNotSupported', 'spec.containers[0].volumeMounts[0].recursiveReadOnly: Enabled (volume "d") needs recursive read-only mounts, which the runtime (containerd 1.6'],
  ['apparmor', '', '    securityContext: {appArmorProfile: {type: Localhost, localhostProfile: k8s-deny-write}}\n', 'AppArmor', 'Cannot enforce AppArmor: spec.containers[0].securityContext.appArmorProfile asks for the Localhost profile "k8s-deny-write", but AppArmor is not enabled on the host'],
  ['imgvol', `  volumes: [{name: m, image: {reference: "${BUSYBOX}"}}]\n`, '    volumeMounts: [{name: m, mountPath: /m}]\n', 'ImageVolumeNotSupported', 'spec.volumes[0].image: image volumes need a runtime that mounts OCI images through the CRI (containerd 2.1 or later), and the runtime is containerd 1.6'],
]

describe('runtime-dependent fields (real containerd 1.6, no AppArmor)', () => {
  beforeAll(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterEach(async () => {
    await kn(dirs, ['down', '--all'])
  })
  afterAll(() => dirs.cleanup())

  it.each(CASES)('run refuses %s with its sentence and leaves nothing behind', async (name, spec, container, reason, sentence) => {
    const manifest = writeManifest(dirs.work, `${name}.yaml`, podWith(name, spec, container))
    const valid = await kn(dirs, ['validate', '-f', manifest])
    expect(valid.code, valid.stderr).toBe(0)
    const r = await kn(dirs, ['run', '-f', manifest, '--timeout', '30s'])
    expect(r.code).toBe(1)
    expect(r.stderr + r.stdout).toContain(sentence)
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `${name}-${NODE}`)).toEqual([])
    const got = await kn(dirs, ['get', 'pods', name, '-o', 'json'])
    expect(got.code, got.stderr).toBe(0)
    // One named pod: the Pod itself, as kubectl prints it.
    const status = (JSON.parse(got.stdout) as {status: {phase: string; reason?: string; message?: string}}).status
    expect(status).toMatchObject({phase: 'Failed', reason})
    expect(status.message).toContain(sentence)
    const described = await kn(dirs, ['describe', 'pod', name])
    expect(described.stdout).toContain(reason)
  })

  it('recursiveReadOnly: IfPossible falls back to a read-only mount and runs', async () => {
    const manifest = writeManifest(
      dirs.work,
      'rro-ok.yaml',
      podWith('rro-ok', '  volumes: [{name: d, emptyDir: {}}]\n', '    volumeMounts: [{name: d, mountPath: /d, readOnly: true, recursiveReadOnly: IfPossible}]\n'),
    )
    const r = await kn(dirs, ['run', '-f', manifest])
    expect(r.code, r.stderr).toBe(0)
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `rro-ok-${NODE}`)).toHaveLength(2)
    const write = await kn(dirs, ['exec', 'rro-ok', '--', 'touch', '/d/x'])
    expect(write.code).not.toBe(0)
  })

  it('appArmorProfile Unconfined runs on a host without AppArmor', async () => {
    const manifest = writeManifest(dirs.work, 'aa-ok.yaml', podWith('aa-ok', '', '    securityContext: {appArmorProfile: {type: Unconfined}}\n'))
    const r = await kn(dirs, ['run', '-f', manifest])
    expect(r.code, r.stderr).toBe(0)
    expect(ctrContainersWithLabel(POD_NAME_LABEL, `aa-ok-${NODE}`)).toHaveLength(2)
  })
})
