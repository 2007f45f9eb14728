// Loads proto/api.proto once per process. The path is resolved from this module's own location:
// src/cri/grpc/load.ts (vitest) and dist/cri/grpc/load.js (after tsc) both reach <root>/proto.
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {loadPackageDefinition} from '@grpc/grpc-js'
import {fromJSON, loadSync} from '@grpc/proto-loader'
import type {ProtoGrpcType} from './generated/api.js'

export const CRI_PROTO_PATH = fileURLToPath(new URL('../../../proto/api.proto', import.meta.url))
/** Written next to the compiled module by the build (scripts/proto-json.mjs); absent under vitest. */
const CRI_PROTO_JSON_PATH = fileURLToPath(new URL('./api.proto.json', import.meta.url))

function readDescriptor(): unknown {
  try {
    return JSON.parse(readFileSync(CRI_PROTO_JSON_PATH, 'utf8'))
  } catch {
    return undefined
  }
}

/** The same options the generated types were made with (scripts/gen-cri.mjs). */
export const PROTO_LOADER_OPTIONS = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
} as const

let cached: ProtoGrpcType | undefined

export function loadCriProto(): ProtoGrpcType {
  if (!cached) {
    const json = readDescriptor()
    const definition = json ? fromJSON(json as Parameters<typeof fromJSON>[0], {...PROTO_LOADER_OPTIONS}) : loadSync(CRI_PROTO_PATH, {...PROTO_LOADER_OPTIONS})
    // loadPackageDefinition is untyped; the generated ProtoGrpcType describes exactly this shape.
    cached = loadPackageDefinition(definition) as unknown as ProtoGrpcType
  }
  return cached
}
