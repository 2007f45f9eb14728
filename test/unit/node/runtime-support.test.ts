import {describe, expect, it} from 'vitest'
import {FakeRuntime} from '../../support/fake-runtime.js'
import {runtimeSupportLoader} from '../../../src/node/runtime-support.js'

const NO_APPARMOR = async () => ({enabled: false, profiles: new Set<string>()})

describe('runtimeSupportLoader', () => {
  it('reads Version and Status once, when first asked, and keeps the answer', async () => {
    const fake = new FakeRuntime()
    fake.features = {handlers: [{name: '', recursiveReadOnlyMounts: true, userNamespaces: false}], supplementalGroupsPolicy: true}
    const load = runtimeSupportLoader(fake, NO_APPARMOR)
    expect(fake.callNames()).toEqual([])
    const [a, b] = await Promise.all([load(), load()])
    expect(await load()).toBe(a)
    expect(b).toBe(a)
    expect(fake.callNames().sort()).toEqual(['Status', 'Version'])
    expect(a).toEqual({
      runtime: {name: 'fake', version: '1.0.0'},
      handlers: [{name: '', recursiveReadOnlyMounts: true, userNamespaces: false}],
      supplementalGroupsPolicy: true,
      appArmor: {enabled: false, profiles: new Set()},
    })
  })

  it('does not keep a failure: the next pod asks again', async () => {
    const fake = new FakeRuntime()
    fake.failNext('Status', 'Unavailable', 'runtime restarting')
    const load = runtimeSupportLoader(fake, NO_APPARMOR)
    await expect(load()).rejects.toThrow(/restarting/)
    await expect(load()).resolves.toMatchObject({handlers: []})
  })
})
