// A setting comes from the command line if given there, else from --config (a
// KubeletConfiguration), else from the flag's default. Checked on the real `watch` command: its
// parsing, config loading and pick() calls run as they do for a user, and it is stopped where
// it would dial the runtime.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Config} from '@oclif/core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import Watch from '../../../src/commands/watch.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** What watch resolved, up to the point where it would create the node. */
interface Resolved {
  picked: Map<string, unknown>
  node: {runtimeRequestTimeoutMs: number; validate?: string | undefined}
}

class Resolution extends Error {
  constructor(readonly resolved: Resolved) {
    super('resolved')
  }
}

class ResolvingWatch extends Watch {
  private picked = new Map<string, unknown>()

  protected override pick<V>(flag: string, fromConfig: V | undefined, flagValue: V): V {
    const value = super.pick(flag, fromConfig, flagValue)
    this.picked.set(flag, value)
    return value
  }

  // watch builds the node from this right after resolving its own settings: stop there.
  protected override nodeConfig(): never {
    throw new Resolution({picked: this.picked, node: super.nodeConfig()})
  }

  protected override async catch(err: Error & {exitCode?: number}): Promise<unknown> {
    if (err instanceof Resolution) throw err
    return super.catch(err)
  }
}

describe('flag > config file > default', () => {
  let config: Config
  let work: string
  let kubeletConfig: string
  beforeAll(async () => {
    config = await Config.load(ROOT)
    work = mkdtempSync(join(tmpdir(), 'kube-node-precedence-'))
    kubeletConfig = join(work, 'kubelet.yaml')
    writeFileSync(kubeletConfig, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nsyncFrequency: 30s\nruntimeRequestTimeout: 45s\nstaticPodValidation: warn\n')
  })
  afterAll(() => rmSync(work, {recursive: true, force: true}))

  async function resolveWatch(argv: string[]): Promise<Resolved> {
    const run = ResolvingWatch.run([work, '--node-name', 'n1', '--port', '0', '--healthz-port', '0', ...argv], config)
    const err: unknown = await run.then(
      () => new Error('watch did not stop at nodeConfig'),
      (e: unknown) => e,
    )
    if (!(err instanceof Resolution)) throw err
    return err.resolved
  }

  it('a flag given on the command line wins over the config file', async () => {
    const r = await resolveWatch(['--config', kubeletConfig, '--sync-frequency', '5s', '--runtime-request-timeout', '10s', '--validate', 'ignore'])
    expect(r.picked.get('sync-frequency')).toBe(5_000)
    expect(r.node.runtimeRequestTimeoutMs).toBe(10_000)
    expect(r.node.validate).toBe('ignore')
  })

  it('a flag given with its default value still wins over the config file', async () => {
    const r = await resolveWatch(['--config', kubeletConfig, '--sync-frequency', '1m'])
    expect(r.picked.get('sync-frequency')).toBe(60_000)
  })

  it('the config file wins over the default', async () => {
    const r = await resolveWatch(['--config', kubeletConfig])
    expect(r.picked.get('sync-frequency')).toBe(30_000)
    expect(r.node.runtimeRequestTimeoutMs).toBe(45_000)
    expect(r.node.validate).toBe('warn')
  })

  it('the default applies when neither is given', async () => {
    const r = await resolveWatch([])
    expect(r.picked.get('sync-frequency')).toBe(60_000)
    expect(r.node.runtimeRequestTimeoutMs).toBe(120_000)
    expect(r.node.validate).toBe('strict')
  })
})
