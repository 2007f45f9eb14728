// Build step: proto/api.proto → dist/cri/grpc/api.proto.json, the parsed descriptor, so that the
// CLI does not parse the .proto text at every start (src/cri/grpc/load.ts prefers the JSON).
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import protobuf from 'protobufjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist/cri/grpc/api.proto.json')
// Parsed with protobufjs's default keepCase=false, the same field naming proto-loader gives.
const parsed = protobuf.loadSync(join(root, 'proto/api.proto'))
mkdirSync(dirname(out), {recursive: true})
writeFileSync(out, JSON.stringify(parsed.toJSON({keepComments: false})))
