// The least any gRPC client on this Node can do for `version`: one CRI Version call over Node's own
// node:http2, with no library, no flags and no output formatting (bench/start.mjs times it as the
// floor under every client). Usage: node bare-version.cjs unix:///path/to/runtime.sock
'use strict'
const http2 = require('node:http2')
const net = require('node:net')

const endpoint = process.argv[2] ?? ''
if (!endpoint.startsWith('unix://')) throw new Error(`bare-version: a unix:// endpoint, not ${JSON.stringify(endpoint)}`)
const session = http2.connect('http://localhost', {createConnection: () => net.connect(endpoint.slice('unix://'.length))})
session.on('error', (err) => {
  throw err
})
const call = session.request({':method': 'POST', ':path': '/runtime.v1.RuntimeService/Version', 'content-type': 'application/grpc', te: 'trailers'})
let bytes = 0
call.on('data', (chunk) => (bytes += chunk.length))
call.on('trailers', (trailers) => {
  // An empty VersionRequest is valid; a status other than 0 means the call did not do its work.
  if (trailers['grpc-status'] !== '0') throw new Error(`bare-version: grpc-status ${trailers['grpc-status']}: ${trailers['grpc-message']}`)
})
call.on('end', () => {
  if (bytes === 0) throw new Error('bare-version: empty answer')
  process.exit(0)
})
// One gRPC message: not compressed, 0 bytes long (an empty VersionRequest).
call.end(Buffer.alloc(5))
