// Loads the CRI API once per process, from the descriptor generated out of proto/api.proto
// (./generated/descriptor.ts, `npm run gen:cri`): the service clients are made directly with
// protobufjs's light build, with no .proto parsing, no file read and none of proto-loader's
// reflection descriptors, which cost a CLI start tens of milliseconds. Messages are (de)serialised
// exactly as proto-loader does with PROTO_LOADER_OPTIONS, so the generated types describe them.
import {makeClientConstructor, type ServiceDefinition} from '@grpc/grpc-js'
import protobuf from 'protobufjs/light.js'
import type {ProtoGrpcType} from './generated/api.js'
import {CRI_DESCRIPTOR} from './generated/descriptor.js'

/** The options the generated types were made with (scripts/gen-cri.mjs). */
export const PROTO_LOADER_OPTIONS = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
} as const

const PACKAGE = 'runtime.v1'
const SERVICES = ['RuntimeService', 'ImageService'] as const

function serviceDefinition(root: protobuf.Root, name: string): ServiceDefinition {
  const service = root.lookupService(`${PACKAGE}.${name}`)
  const def: Record<string, ServiceDefinition[string]> = {}
  for (const method of service.methodsArray) {
    const request = root.lookupType(method.requestType)
    const response = root.lookupType(method.responseType)
    def[method.name] = {
      path: `/${PACKAGE}.${name}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: object) => Buffer.from(request.encode(request.fromObject(value)).finish()),
      requestDeserialize: (bytes: Buffer) => request.toObject(request.decode(bytes), PROTO_LOADER_OPTIONS),
      responseSerialize: (value: object) => Buffer.from(response.encode(response.fromObject(value)).finish()),
      responseDeserialize: (bytes: Buffer) => response.toObject(response.decode(bytes), PROTO_LOADER_OPTIONS),
      originalName: method.name.charAt(0).toLowerCase() + method.name.slice(1),
    }
  }
  return def
}

let cached: ProtoGrpcType | undefined

export function loadCriProto(): ProtoGrpcType {
  if (!cached) {
    const root = protobuf.Root.fromJSON(CRI_DESCRIPTOR)
    const v1: Record<string, unknown> = {}
    for (const name of SERVICES) {
      const def = serviceDefinition(root, name)
      v1[name] = Object.assign(makeClientConstructor(def, name), {service: def})
    }
    // The generated ProtoGrpcType describes exactly this shape: runtime.v1.{RuntimeService,ImageService}.
    cached = {runtime: {v1}} as unknown as ProtoGrpcType
  }
  return cached
}
