// The host AppArmor probe over a directory laid out like /sys (the real host has no AppArmor).
import {mkdtemp, mkdir, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parseLoadedProfiles, readAppArmorHost} from '../../../src/host/apparmor.js'

describe('the host AppArmor probe', () => {
  let root: string | undefined
  afterEach(async () => {
    if (root) await rm(root, {recursive: true, force: true})
  })

  it('parses `name (mode)` lines, namespaced names and names with spaces kept whole', () => {
    expect([...parseLoadedProfiles('k8s-deny-write (enforce)\n:ns://other (complain)\n/usr/bin/man (enforce)\nodd line\nwith space (kill)\n')]).toEqual([
      'k8s-deny-write', ':ns://other', '/usr/bin/man', 'with space',
    ])
  })

  it('no securityfs directory: not enabled (this host)', async () => {
    root = await mkdtemp(join(tmpdir(), 'aa-'))
    expect(await readAppArmorHost(root)).toEqual({enabled: false, profiles: new Set()})
  })

  it('enabled: Y, with the loaded profiles', async () => {
    root = await mkdtemp(join(tmpdir(), 'aa-'))
    await mkdir(join(root, 'sys/kernel/security/apparmor'), {recursive: true})
    await mkdir(join(root, 'sys/module/apparmor/parameters'), {recursive: true})
    await writeFile(join(root, 'sys/module/apparmor/parameters/enabled'), 'Y\n')
    await writeFile(join(root, 'sys/kernel/security/apparmor/profiles'), 'k8s-deny-write (enforce)\n')
    expect(await readAppArmorHost(root)).toEqual({enabled: true, profiles: new Set(['k8s-deny-write'])})
    await writeFile(join(root, 'sys/module/apparmor/parameters/enabled'), 'N\n')
    expect((await readAppArmorHost(root)).enabled).toBe(false)
  })
})
