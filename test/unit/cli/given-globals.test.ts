import {describe, expect, it} from 'vitest'
import {givenGlobalArgs} from '../../../src/cli/given-globals.js'
import type {NodeConfig} from '../../../src/node/config.js'

const config = {
  nodeName: 'n1',
  rootDir: '/tmp/root',
  podLogsDir: '/tmp/logs',
  runtimeEndpoint: 'unix:///run/x.sock',
  imageEndpoint: 'unix:///run/img.sock',
} as NodeConfig

describe('givenGlobalArgs: the flags a pasted hint must repeat', () => {
  it.each([
    ['nothing given: nothing repeated (the defaults apply again)', [], undefined, []],
    ['root dir and runtime, in the order the contract lists them', ['runtime-endpoint', 'root-dir'], undefined, ['--root-dir', '/tmp/root', '--runtime-endpoint', 'unix:///run/x.sock']],
    ['every locating flag', ['root-dir', 'runtime-endpoint', 'image-endpoint', 'node-name', 'pod-logs-dir', 'config'], '/etc/kn.yaml', ['--root-dir', '/tmp/root', '--runtime-endpoint', 'unix:///run/x.sock', '--image-endpoint', 'unix:///run/img.sock', '--node-name', 'n1', '--pod-logs-dir', '/tmp/logs', '--config', '/etc/kn.yaml']],
    ['flags that do not locate anything are left out', ['verbosity', 'timeout', 'max-pods'], undefined, []],
  ])('%s', (_, given, file, want) => {
    expect(givenGlobalArgs(new Set(given), config, file)).toEqual(want)
  })
})
