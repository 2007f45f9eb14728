import {describe, expect, it} from 'vitest'
import type {PodActions} from '../../../src/decide/actions.js'
import {describeActions} from '../../../src/decide/describe.js'

const base: PodActions = {uid: 'u', name: 'web-node1', namespace: 'default', sandboxId: '', actions: [], blocked: [], terminal: false}

describe('describeActions', () => {
  it('says "nothing to do" for an empty plan', () => {
    expect(describeActions(base)).toEqual(['nothing to do'])
  })

  it('prints one line per action, in order, then the containers that wait', () => {
    const plan: PodActions = {
      ...base,
      actions: [
        {type: 'PullImage', image: 'nginx:1.27', containers: ['web', 'side'], reason: 'image "nginx:1.27" is not present and imagePullPolicy is IfNotPresent'},
        {type: 'KillPod', reason: 'sandbox 0123456789abc is not ready'},
        {type: 'KillContainer', containerId: '0123456789abcdef0123', name: 'web', reason: 'container "web" failed its liveness probe'},
        {type: 'CreateSandbox', attempt: 1, reason: 'sandbox 0123456789abc is not ready'},
        {type: 'StartContainer', name: 'init', containerType: 'init', restartCount: 0, reason: 'init container "init" runs first in the new sandbox'},
        {type: 'StartContainer', name: 'web', containerType: 'regular', restartCount: 2, reason: 'container "web" starts in the new sandbox'},
      ],
      blocked: [{name: 'db', reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=db'}],
    }
    expect(describeActions(plan)).toEqual([
      'pull image nginx:1.27 (for "web", "side"): image "nginx:1.27" is not present and imagePullPolicy is IfNotPresent',
      'stop the pod: sandbox 0123456789abc is not ready',
      'stop container "web" (0123456789abc): container "web" failed its liveness probe',
      'create sandbox (attempt 1): sandbox 0123456789abc is not ready',
      'start init container "init": init container "init" runs first in the new sandbox',
      'start container "web" (restart 2): container "web" starts in the new sandbox',
      'wait for container "db" (CrashLoopBackOff): back-off 20s restarting failed container=db',
    ])
  })
})
