// Node built-ins that one file of a package requires at load but uses only on paths kube-node
// never or rarely takes. The bundle (scripts/bundle.mjs) gives each listed require a lazy view
// (scripts/bundle-stubs/lazy-builtin.cjs), and the module is loaded when a member is first read.
// Each importer here reads the module only inside functions, as `binding.member`, never at load
// (no destructuring, no interop helper that copies keys); test/unit/entry/lazy-builtins.test.ts
// loads every listed file to prove it, and test/e2e/cli-entry.test.ts checks what the built CLI
// loads. Specifiers are written as the importer writes them.
//
// Not listed, on purpose:
// - `tls` (grpc-js channel-credentials.js, transport.js): Node's http2, which grpc-js loads to make
//   any call, loads tls (and crypto, net, http) itself, so a lazy tls would only move its cost.
// - `node:crypto` (src/util/hash.ts): the commands that load it either talk to the runtime (http2
//   loads crypto, as above) or derive a pod's UID with it (validate).
// - `node:child_process` from wsl-utils and powershell-utils: they promisify execFile at load.
//   The bundle replaces wsl-utils instead (scripts/bundle-stubs/wsl-utils.mjs).

/** [file under node_modules, the built-in as it requires it]. */
export const lazyBuiltins = [
  // execSync only to ask PowerShell for the shell on Windows (getShell).
  ['@oclif/core/lib/util/os.js', 'node:child_process'],
  // createInterface only to read an argument from stdin when it is not given and stdin is no TTY.
  ['@oclif/core/lib/parser/parse.js', 'node:readline'],
  // performance marks only with OCLIF_PERFORMANCE or DEBUG=perf (Performance.enabled).
  ['@oclif/core/lib/performance.js', 'node:perf_hooks'],
  // deflate/gzip (inflate/gunzip on the server side) only for a compressed message; kube-node asks
  // for no compression and runs no gRPC server.
  ['@grpc/grpc-js/build/src/compression-filter.js', 'zlib'],
  ['@grpc/grpc-js/build/src/server-interceptors.js', 'zlib'],
  // A resolver only for dns: targets; kube-node's runtime endpoints are unix: sockets.
  ['@grpc/grpc-js/build/src/resolver-dns.js', 'dns'],
]
