// Stand-in for `long` in the bundle (scripts/bundle.mjs). protobufjs uses Long.js for 64-bit
// integers when it can load it, else plain numbers (util.Long null); the real package compiles a
// WebAssembly module at import, about 1.5 ms of every start that talks to the runtime. kube-node
// asks for int64 fields as decimal strings and turns them into numbers (src/cri/grpc/convert.ts,
// int64ToNumber), and protobufjs's number path rounds the 64 bits to the same double that
// Number() of the exact string gives, so what kube-node sees does not change. null is what
// protobufjs's own loader treats as "no Long.js". The other importer, @grpc/proto-loader, is
// loaded only by grpc-js's channelz and ORCA services, which kube-node does not run.
'use strict'

module.exports = null
