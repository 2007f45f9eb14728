import {describe, expect, it} from 'vitest'
import {parseEndpoint} from '../../../../src/cri/grpc/endpoint.js'
import {InvalidInputError} from '../../../../src/util/errors.js'

describe('parseEndpoint', () => {
  it.each([
    ['unix:///run/containerd/containerd.sock', 'unix', '/run/containerd/containerd.sock', 'unix:///run/containerd/containerd.sock'],
    ['unix:/run/containerd/containerd.sock', 'unix', '/run/containerd/containerd.sock', 'unix:///run/containerd/containerd.sock'],
    ['/run/crio/crio.sock', 'unix', '/run/crio/crio.sock', 'unix:///run/crio/crio.sock'],
    ['  unix:///tmp/x.sock ', 'unix', '/tmp/x.sock', 'unix:///tmp/x.sock'],
    ['UNIX:///tmp/x.sock', 'unix', '/tmp/x.sock', 'unix:///tmp/x.sock'],
    ['tcp://localhost:3735', 'tcp', 'localhost:3735', 'dns:localhost:3735'],
    ['tcp://127.0.0.1:10010', 'tcp', '127.0.0.1:10010', 'dns:127.0.0.1:10010'],
    ['tcp://[::1]:10010', 'tcp', '[::1]:10010', 'dns:[::1]:10010'],
  ])('%s → %s %s', (input, protocol, address, target) => {
    expect(parseEndpoint(input)).toEqual({protocol, address, target})
  })

  it.each([
    ['', /empty/],
    ['unix://run/containerd.sock', /absolute/],
    ['unix:relative.sock', /absolute/],
    ['containerd.sock', /expected unix/],
    ['tcp://localhost', /tcp:\/\/host:port/],
    ['tcp://localhost:0', /tcp:\/\/host:port/],
    ['tcp://localhost:70000', /tcp:\/\/host:port/],
    ['npipe:////./pipe/containerd', /"npipe" is not supported/],
    ['http://localhost:80', /"http" is not supported/],
  ])('rejects %j', (input, message) => {
    expect(() => parseEndpoint(input)).toThrow(InvalidInputError)
    expect(() => parseEndpoint(input)).toThrow(message)
  })

  it('names the endpoint in the error', () => {
    expect(() => parseEndpoint('ftp://x')).toThrow('invalid CRI endpoint "ftp://x"')
  })
})
