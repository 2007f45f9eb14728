// Loads proto/api.proto once per process. The path is resolved from this module's own location:
// src/cri/grpc/load.ts (vitest) and dist/cri/grpc/load.js (after tsc) both reach <root>/proto.
import {fileURLToPath} from 'node:url'
import {loadPackageDefinition} from '@grpc/grpc-js'
import {loadSync} from '@grpc/proto-loader'
import type {ProtoGrpcType} from './generated/api.js'

export const CRI_PROTO_PATH = fileURLToPath(new URL('../../../proto/api.proto', import.meta.url))

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
    const definition = loadSync(CRI_PROTO_PATH, {...PROTO_LOADER_OPTIONS})
    // loadPackageDefinition is untyped; the generated ProtoGrpcType describes exactly this shape.
    cached = loadPackageDefinition(definition) as unknown as ProtoGrpcType
  }
  return cached
}
