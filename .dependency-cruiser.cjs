// The import rules of ARCHITECTURE.md, checked by `npm run layers` in the test script. Layers,
// from the top: commands → cli → services (what each command does: get, describe, run, watch, …,
// on a KubeNode) → node (composition root: wiring, config, lock, credential and identity files) →
// loop, sources, server, metrics → apply → decide, status, prober, pleg, images → pod → manifest →
// store, volumes → kuberuntime → cri and host (ports) → api, util. cri/grpc and host/ (but
// host/port.ts) are adapters that only node/ may pick. metrics/ holds the metric families: the
// core's metric ports implemented; commands/watch creates them and hands them to node/ and the
// watch service. A rule lists what a folder may import from src/ (or, for the upper layers, what
// it may not); anything else is a violation named by its rule.
// Beside the folders: no file outside host/ imports node:fs (every access goes through HostFs),
// and the pure modules (scripts/layer-paths.cjs) import nothing that does I/O. What no import
// shows (process.env, the clock, timers) scripts/check-globals.mjs checks; `npm run layers` runs both,
// and test/unit/architecture/layer-rules.test.ts proves each rule with a deliberate violation.

const {PURE} = require('./scripts/layer-paths.cjs')

/** A rule: files under `folder` may import from src/ only the folders in `allowed`. */
function layer(folder, allowed, comment) {
  return {
    name: `layer-${folder.replaceAll('/', '-')}`,
    comment,
    severity: 'error',
    from: {path: `^src/${folder}/`},
    to: {path: '^src/', pathNot: [`^src/${folder}/`, ...allowed.map((a) => `^src/${a}(/|\\.ts$)`)]},
  }
}

const base = ['api', 'util']
const port = ['cri/api', 'cri/port', 'cri/errors']

module.exports = {
  forbidden: [
    layer('api', ['util'], 'api/ holds types only'),
    layer('util', ['api'], 'util/ is importable from anywhere, so it imports nothing of the core'),
    {
      name: 'layer-cri-port',
      comment: 'the CRI port knows nothing of kube-node; only cri/grpc and cri/instrumented implement it',
      severity: 'error',
      from: {path: '^src/cri/(api|port|errors)\\.ts$'},
      to: {path: '^src/', pathNot: ['^src/cri/(api|port|errors)\\.ts$', '^src/(api|util)/']},
    },
    layer('cri/grpc', [...base, 'cri/api', 'cri/port', 'cri/errors'], 'the gRPC client implements the port'),
    layer('host', [...base], 'the host port and its implementation on the real node know nothing of pods'),
    {
      name: 'host-implementation-only-in-composition-root',
      comment: 'the core speaks to the host through host/port.ts; node/ picks the implementation, and the services (what a command does on this host: its records, its node facts) use it as node/ does',
      severity: 'error',
      from: {path: '^src/', pathNot: '^src/(node|host|services)/'},
      to: {path: '^src/host/', pathNot: '^src/host/port\\.ts$'},
    },
    layer('manifest', [...base, 'host/port', 'volumes', 'kuberuntime'], 'reading and validating manifests'),
    layer('store', [...base, 'host/port', 'kuberuntime'], 'what the managing process knew: status records and events, on disk through the host port'),
    layer('volumes', [...base, 'host/port', 'cri/api', 'kuberuntime'], 'the volume-kind registry: one record per kind, effects through the host port'),
    layer('kuberuntime', [...base, ...port, 'host/port'], 'pod ↔ CRI translation: below every decision and effect'),
    layer('pod', [...base, 'kuberuntime'], 'pure facts about a pod shared by decide, status, prober'),
    layer('images', [...base, ...port, 'kuberuntime'], 'pull policy and pulling'),
    layer('decide', [...base, 'pod', 'kuberuntime', 'images'], 'pure decisions'),
    layer('status', [...base, 'pod', 'kuberuntime'], 'pure status generation'),
    layer('prober', [...base, ...port, 'pod', 'kuberuntime'], 'probes'),
    layer('pleg', [...base, ...port, 'pod', 'kuberuntime', 'images'], 'the runtime cache and the relist that fills it'),
    layer('apply', [...base, ...port, 'host/port', 'store', 'volumes', 'pod', 'kuberuntime', 'decide', 'prober', 'images'], 'host and runtime effects of one plan'),
    layer('loop', [...base, ...port, 'host/port', 'store', 'volumes', 'pod', 'kuberuntime', 'decide', 'status', 'prober', 'pleg', 'images', 'apply'], 'pod workers, run-once, the sync loop'),
    layer('sources', [...base, 'host/port', 'manifest'], 'manifest sources'),
    layer('server', [...base], 'the HTTP server gets its data injected'),
    layer('metrics', [...base, ...port, 'cri/instrumented', 'kuberuntime', 'pleg/relist', 'prober/metrics', 'prober/probe', 'apply/sync-metrics', 'loop/pod-counts'], 'the metric families implement the core\'s metric ports: they know nothing of commands, services or the wiring'),
    {
      name: 'layer-node',
      comment: 'the composition root wires the core; the services that use what it builds, the metric families and the command line are above it',
      severity: 'error',
      from: {path: '^src/node/'},
      to: {path: '^src/(cli|commands|services|metrics)/'},
    },
    {
      name: 'layer-services',
      comment: 'the command services work on the KubeNode node/ built: no command line, and no runtime client of their own',
      severity: 'error',
      from: {path: '^src/services/'},
      to: {path: '^src/(cli|commands|entry)/|^src/cri/grpc/'},
    },
    {
      name: 'entry-is-the-top',
      comment: 'entry/ (the bundle root: every command, served to oclif from memory) is imported by nothing',
      severity: 'error',
      from: {path: '^src/', pathNot: '^src/entry/'},
      to: {path: '^src/entry/'},
    },
    {
      name: 'layer-entry',
      comment: 'entry/ knows the commands and oclif, nothing of the core',
      severity: 'error',
      from: {path: '^src/entry/'},
      to: {path: '^src/', pathNot: ['^src/(entry|commands|cli)/'], dependencyTypesNot: ['type-only']},
    },
    {
      name: 'layer-cli',
      comment: 'cli/ renders what services/ return: values from services, node, manifest and the action sentences; types from anywhere',
      severity: 'error',
      from: {path: '^src/cli/'},
      to: {path: '^src/', pathNot: ['^src/(cli|services|node|api|util|manifest)/', '^src/decide/describe\\.ts$'], dependencyTypesNot: ['type-only']},
    },
    {
      name: 'layer-commands',
      comment: 'commands are thin: flags → cli/services (on a node/) → render; watch creates the metrics registries it hands to node/',
      severity: 'error',
      from: {path: '^src/commands/'},
      to: {path: '^src/', pathNot: ['^src/(commands|cli|services|node|metrics|api|util|manifest|sources)/'], dependencyTypesNot: ['type-only']},
    },
    {
      name: 'ui-libraries-only-in-cli',
      comment: 'only entry/, cli/ and commands/ know about oclif, chalk and ora',
      severity: 'error',
      from: {path: '^src/', pathNot: '^src/(entry|cli|commands)/'},
      to: {path: '(^|/)node_modules/(@oclif|chalk|ora)/'},
    },
    {
      name: 'grpc-only-in-cri-grpc',
      comment: 'only cri/grpc talks gRPC',
      severity: 'error',
      from: {path: '^src/', pathNot: '^src/cri/grpc/'},
      to: {path: '(^|/)node_modules/(@grpc|protobufjs)/'},
    },
    {
      name: 'pure-modules-do-no-io',
      comment: 'decisions, pod facts, status and the builders are pure: no file system, process, network, timers or clock (util/clock, util/gathered-writes), and no host/ file (but the types of host/port.ts)',
      severity: 'error',
      from: {path: PURE},
      to: {
        path: '^(node:)?(fs|fs/promises|child_process|net|dgram|dns|dns/promises|http|https|http2|tls|timers|timers/promises|process|os|worker_threads|readline)$|^src/util/(clock|gathered-writes)\\.ts$|^src/host/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'fs-only-in-host',
      comment: 'every file-system access outside host/ goes through HostFs (host/port.ts); node/ picks the implementation',
      severity: 'error',
      from: {path: '^src/', pathNot: '^src/host/'},
      to: {path: '^(node:)?fs(/promises)?$', dependencyTypesNot: ['type-only']},
    },
    {
      name: 'layer-cri-instrumented',
      comment: 'the instrumented runtime wraps the CRI port (deadlines, logs, metrics): the port, util and api, nothing of the core',
      severity: 'error',
      from: {path: '^src/cri/instrumented\\.ts$'},
      to: {path: '^src/', pathNot: ['^src/cri/(api|port|errors|instrumented)\\.ts$', '^src/(api|util)/']},
    },
    {
      name: 'no-tests-from-src',
      severity: 'error',
      from: {path: '^src/'},
      to: {path: '^test/'},
    },
  ],
  options: {
    doNotFollow: {path: 'node_modules'},
    exclude: {path: '^src/cri/grpc/generated/'},
    tsPreCompilationDeps: true,
    tsConfig: {fileName: 'tsconfig.json'},
    enhancedResolveOptions: {exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default']},
  },
}
