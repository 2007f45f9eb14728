// What the composition root takes from the node's configuration into the core.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {execFileSync} from 'node:child_process'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createNode} from '../../../src/node/create-node.js'
import type {NodeConfig} from '../../../src/node/config.js'
import {silentLogger, type Logger} from '../../../src/util/logger.js'
import {FakeRuntime} from '../../support/fake-runtime.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

function config(extra: Partial<NodeConfig>): NodeConfig {
  const work = mkdtempSync(join(tmpdir(), 'kn-node-'))
  dirs.push(work)
  return {nodeName: 'n1', rootDir: join(work, 'root'), podLogsDir: join(work, 'logs'), runtimeEndpoint: '', imageEndpoint: '', runtimeRequestTimeoutMs: 1000, resolvConf: '', clusterDNS: [], clusterDomain: 'cluster.local', parallelism: 4, ...extra}
}

describe('createNode', () => {
  it.each<[string, number | undefined, number[]]>([
    ["the kubelet's back-off: 10s doubling to 300s", undefined, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000]],
    ['crashLoopBackOff.maxContainerRestartPeriod: 30s', 30_000, [10_000, 20_000, 30_000, 30_000]],
    ['a ceiling under 10s is the first delay too', 5_000, [5_000, 5_000]],
  ])('%s', async (_name, max, delays) => {
    const node = await createNode(config({maxContainerRestartPeriodMs: max}), silentLogger, {runtime: new FakeRuntime()})
    expect(delays.map((_, i) => node.sync.backOff.next('k', i, 'CrashLoopBackOff') - i)).toEqual(delays)
    node.close()
  })

  describe('KUBE_NODE_TEST_ONLY_BACKOFF_MS (README, Development)', () => {
    afterEach(() => {
      delete process.env['KUBE_NODE_TEST_ONLY_BACKOFF_MS']
    })
    it.each<[string, string, number[]]>([
      ['a whole number of ms is the first delay, still doubling to the ceiling', '1000', [1_000, 2_000, 4_000]],
      ['anything else changes nothing', '1e3', [10_000, 20_000]],
      ['zero changes nothing', '0', [10_000, 20_000]],
    ])('%s', async (_name, value, delays) => {
      process.env['KUBE_NODE_TEST_ONLY_BACKOFF_MS'] = value
      const node = await createNode(config({}), silentLogger, {runtime: new FakeRuntime()})
      expect(delays.map((_, i) => node.sync.backOff.next('k', i, 'CrashLoopBackOff') - i)).toEqual(delays)
      node.close()
    })
  })

  it('freezes what it builds: no run can change the shared deps', async () => {
    const node = await createNode(config({}), silentLogger, {runtime: new FakeRuntime()})
    expect(Object.isFrozen(node) && Object.isFrozen(node.sync) && Object.isFrozen(node.sync.deps)).toBe(true)
    node.close()
  })

  describe("the host's resolv.conf", () => {
    function warnings(): {logger: Logger; seen: string[]} {
      const seen: string[] = []
      const logger: Logger = {...silentLogger, warn: (msg: string) => void seen.push(msg)}
      return {logger, seen}
    }
    function file(name: string, write: (path: string) => void): string {
      const work = mkdtempSync(join(tmpdir(), 'kn-resolv-'))
      dirs.push(work)
      const path = join(work, name)
      write(path)
      return path
    }

    it('gives pods with dnsPolicy Default its servers, searches and options', async () => {
      const path = file('resolv.conf', (p) => writeFileSync(p, 'nameserver 10.0.0.10\nsearch corp.example\noptions ndots:2\n'))
      const node = await createNode(config({resolvConf: path}), silentLogger, {runtime: new FakeRuntime()})
      expect(node.sync.deps.hostDns).toEqual({servers: ['10.0.0.10'], searches: ['corp.example'], options: ['ndots:2']})
      node.close()
    })

    it.each<[string, (path: string) => void]>([
      ['a FIFO (start must not wait for a writer)', (p) => execFileSync('mkfifo', [p])],
      ['a directory', (p) => execFileSync('mkdir', [p])],
      ['a file over 64 KiB', (p) => writeFileSync(p, '# padding\n'.repeat(7000))],
      ['a missing file', () => {}],
    ])('is not read when it is %s: a warning, and no DNS servers', async (_what, make) => {
      const {logger, seen} = warnings()
      const node = await createNode(config({resolvConf: file('resolv.conf', make)}), logger, {runtime: new FakeRuntime()})
      expect(node.sync.deps.hostDns).toEqual({servers: [], searches: [], options: []})
      expect(seen).toEqual(['Could not read the host resolv.conf; pods using it get no DNS servers'])
      node.close()
    })
  })
})
