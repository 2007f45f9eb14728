import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {loadSync} from '@grpc/proto-loader'
import type {ContainerConfig, PodSandboxConfig} from '../../../../src/cri/api.js'
import {
  containerConfigToWire,
  containerFilterToWire,
  containerFromWire,
  containerStatusFromWire,
  execSyncFromWire,
  imageFromWire,
  imageSpecFromWire,
  int64ToNumber,
  podSandboxConfigToWire,
  podSandboxFilterToWire,
  podSandboxFromWire,
  podSandboxStatusFromWire,
} from '../../../../src/cri/grpc/convert.js'
import {PROTO_LOADER_OPTIONS} from '../../../../src/cri/grpc/load.js'

const CRI_PROTO_PATH = fileURLToPath(new URL('../../../../proto/api.proto', import.meta.url))

const sandboxConfig: PodSandboxConfig = {
  metadata: {name: 'web-node1', uid: 'u-1', namespace: 'default', attempt: 0},
  hostname: 'web-node1',
  logDirectory: '/var/log/pods/default_web-node1_u-1',
  portMappings: [{protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: ''}],
  labels: {'io.kubernetes.pod.name': 'web-node1'},
  annotations: {'kubernetes.io/config.source': 'file'},
  linux: {
    securityContext: {namespaceOptions: {network: 'POD', pid: 'CONTAINER', ipc: 'POD'}, runAsUser: {value: 0}},
  },
}

const containerConfig: ContainerConfig = {
  metadata: {name: 'nginx', attempt: 1},
  image: {image: 'nginx:1.25'},
  command: ['nginx'],
  args: ['-g', 'daemon off;'],
  workingDir: '',
  envs: [
    {key: 'GREETING', value: 'grüß dich'},
    {key: 'EMPTY', value: ''},
  ],
  mounts: [],
  labels: {'io.kubernetes.container.name': 'nginx'},
  annotations: {},
  logPath: 'nginx/1.log',
  stdin: false,
  stdinOnce: false,
  tty: false,
  linux: {resources: {cpuPeriod: 100000, cpuQuota: 50000, cpuShares: 512, memoryLimitInBytes: 2 ** 33, oomScoreAdj: 0, cpusetCpus: '', cpusetMems: ''}},
}

// The real (de)serialisers of the CreateContainer method, as grpc-js will run them.
const definition = loadSync(CRI_PROTO_PATH, {...PROTO_LOADER_OPTIONS})
const createContainer = (definition['runtime.v1.RuntimeService'] as Record<string, {requestSerialize: (v: unknown) => Buffer; requestDeserialize: (b: Buffer) => Record<string, unknown>}>)['CreateContainer']!

describe('plain → wire', () => {
  it('turns env values into Buffers, which the bytes field accepts (UTF-8 kept)', () => {
    const wire = containerConfigToWire(containerConfig)
    expect(wire.envs).toEqual([
      {key: 'GREETING', value: Buffer.from('grüß dich', 'utf8')},
      {key: 'EMPTY', value: Buffer.alloc(0)},
    ])
    const bytes = createContainer.requestSerialize({podSandboxId: 'sb', config: wire, sandboxConfig: podSandboxConfigToWire(sandboxConfig)})
    const back = createContainer.requestDeserialize(bytes) as {config: {envs: {key: string; value: Buffer}[]; linux: {resources: {memoryLimitInBytes: string}}}; sandboxConfig: {labels: Record<string, string>}}
    expect(back.config.envs.map((e) => [e.key, e.value.toString('utf8')])).toEqual([
      ['GREETING', 'grüß dich'],
      ['EMPTY', ''],
    ])
    // int64 numbers go out as int64 and come back as decimal strings.
    expect(back.config.linux.resources.memoryLimitInBytes).toBe(String(2 ** 33))
    expect(back.sandboxConfig.labels).toEqual({'io.kubernetes.pod.name': 'web-node1'})
  })

  it('a plain string in a bytes field is what fails on the wire (why the conversion exists)', () => {
    const raw = {...containerConfig, envs: [{key: 'A', value: 'grüß dich'}]}
    expect(() => createContainer.requestSerialize({config: raw})).toThrow()
  })

  it('fills missing maps with {} and keeps the image spec fields', () => {
    const wire = containerConfigToWire({...containerConfig, labels: undefined as unknown as Record<string, string>})
    expect(wire.labels).toEqual({})
    expect(wire.image).toEqual({image: 'nginx:1.25', annotations: {}, userSpecifiedImage: ''})
  })

  it.each([
    [{}, {id: '', state: null, labelSelector: {}}],
    [{state: 'SANDBOX_READY' as const}, {id: '', state: {state: 'SANDBOX_READY'}, labelSelector: {}}],
    [{id: 'abc', labelSelector: {app: 'x'}}, {id: 'abc', state: null, labelSelector: {app: 'x'}}],
  ])('sandbox filter %j wraps the state so READY (0) differs from "any"', (plain, wire) => {
    expect(podSandboxFilterToWire(plain)).toEqual(wire)
  })

  it('container filter carries sandbox id and wrapped state', () => {
    expect(containerFilterToWire({podSandboxId: 'sb', state: 'CONTAINER_RUNNING'})).toEqual({
      id: '',
      state: {state: 'CONTAINER_RUNNING'},
      podSandboxId: 'sb',
      labelSelector: {},
    })
  })
})

describe('wire → plain', () => {
  it.each([
    ['1700000000123456789', 1700000000123456789],
    ['0', 0],
    ['', 0],
    [null, 0],
    ['42', 42],
  ])('int64 %j → %d', (wire, n) => {
    expect(int64ToNumber(wire)).toBe(n)
  })

  it('reads a sandbox: nanosecond timestamps as numbers, missing maps and metadata as defaults', () => {
    const s = podSandboxFromWire({
      id: 'sb1',
      metadata: null,
      state: 'SANDBOX_READY',
      createdAt: '1700000000000000000',
      labels: null as unknown as Record<string, string>,
      annotations: {a: 'b'},
      runtimeHandler: '',
    })
    expect(s).toEqual({
      id: 'sb1',
      metadata: {name: '', uid: '', namespace: '', attempt: 0},
      state: 'SANDBOX_READY',
      createdAt: 1.7e18,
      labels: {},
      annotations: {a: 'b'},
      runtimeHandler: '',
    })
  })

  it('reads a sandbox status with network and namespace options, and an unknown state as NOTREADY', () => {
    const st = podSandboxStatusFromWire({
      id: 'sb1',
      metadata: {name: 'p', uid: 'u', namespace: 'ns', attempt: 2},
      state: 'SANDBOX_SOMETHING_NEW' as 'SANDBOX_READY',
      createdAt: '5',
      network: {ip: '10.88.0.5', additionalIps: [{ip: 'fd00::5'}]},
      linux: {namespaces: {options: {network: 'NODE', pid: 'POD', ipc: 'POD'}}},
      labels: {},
      annotations: {},
      runtimeHandler: 'runc',
    })
    expect(st.state).toBe('SANDBOX_NOTREADY')
    expect(st.network).toEqual({ip: '10.88.0.5', additionalIps: [{ip: 'fd00::5'}]})
    expect(st.linux).toEqual({namespaces: {options: {network: 'NODE', pid: 'POD', ipc: 'POD'}}})
    expect(st.metadata).toEqual({name: 'p', uid: 'u', namespace: 'ns', attempt: 2})
  })

  it('leaves network and linux out when the runtime sent none', () => {
    const st = podSandboxStatusFromWire({
      id: 'x', metadata: null, state: 'SANDBOX_NOTREADY', createdAt: '0', network: null, linux: null,
      labels: {}, annotations: {}, runtimeHandler: '',
    })
    expect(st).not.toHaveProperty('network')
    expect(st).not.toHaveProperty('linux')
  })

  it('reads a container status with all timestamps, mounts, and unknown enums falling back', () => {
    const c = containerStatusFromWire({
      id: 'c1',
      metadata: {name: 'nginx', attempt: 3},
      state: 'CONTAINER_EXITED',
      createdAt: '1000',
      startedAt: '2000',
      finishedAt: '3000',
      exitCode: 137,
      image: {image: 'docker.io/library/nginx:1.25', annotations: {}, userSpecifiedImage: 'nginx:1.25'},
      imageRef: 'sha256:abc',
      reason: 'OOMKilled',
      message: '',
      labels: {l: '1'},
      annotations: {},
      mounts: [{containerPath: '/d', hostPath: '/h', readonly: true, selinuxRelabel: false, propagation: 'WHATEVER' as 'PROPAGATION_PRIVATE', recursiveReadOnly: false}],
      logPath: '/var/log/pods/x/nginx/3.log',
    })
    expect(c).toEqual({
      id: 'c1',
      metadata: {name: 'nginx', attempt: 3},
      state: 'CONTAINER_EXITED',
      createdAt: 1000,
      startedAt: 2000,
      finishedAt: 3000,
      exitCode: 137,
      image: {image: 'docker.io/library/nginx:1.25', annotations: {}, userSpecifiedImage: 'nginx:1.25'},
      imageRef: 'sha256:abc',
      reason: 'OOMKilled',
      message: '',
      labels: {l: '1'},
      annotations: {},
      mounts: [{containerPath: '/d', hostPath: '/h', readonly: true, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE'}],
      logPath: '/var/log/pods/x/nginx/3.log',
    })
  })

  it('reads a container from a list, with a missing image spec as an empty one', () => {
    const c = containerFromWire({
      id: 'c1', podSandboxId: 'sb', metadata: {name: 'a', attempt: 0}, image: null, imageRef: '',
      state: 'CONTAINER_NEW' as 'CONTAINER_RUNNING', createdAt: '7', labels: {}, annotations: {},
    })
    expect(c.image).toEqual(imageSpecFromWire(null))
    expect(c.state).toBe('CONTAINER_UNKNOWN')
    expect(c.createdAt).toBe(7)
  })

  it('reads image size (uint64 string) as bytes, and the image user', () => {
    expect(imageFromWire({id: 'sha256:1', repoTags: ['busybox:latest'], repoDigests: [], size: '4276160', uid: null, username: ''})).toEqual({
      id: 'sha256:1',
      repoTags: ['busybox:latest'],
      repoDigests: [],
      size: 4276160,
      username: '',
    })
    expect(imageFromWire({id: 'sha256:2', repoTags: [], repoDigests: [], size: '1', uid: {value: '1000'}, username: ''}).uid).toBe(1000)
  })

  it('keeps exec output as Buffers', () => {
    const r = execSyncFromWire({stdout: Buffer.from('hi\n'), stderr: Buffer.alloc(0), exitCode: 0})
    expect(r.stdout.toString()).toBe('hi\n')
    expect(Buffer.isBuffer(r.stderr)).toBe(true)
    expect(r.exitCode).toBe(0)
  })
})
