import * as https from 'node:https'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {runHttpGet} from '../../../src/prober/handlers.js'
import {close, listen} from './listen.js'

// A self-signed certificate: the prober must not verify it, as the kubelet does not.
const key = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgGmMw/gXQ+ePAmQzL
Ynledjq/KnvYA/8lb0i5ZjMytn+hRANCAAQalAujTrnGcSdnoDK12+5va4nCncJ3
/kscYx5nMyj8EPuEKmqUL/vWXuppBj8gNudn6gewmiWZXnx/L9Z2APUw
-----END PRIVATE KEY-----
`
const cert = `-----BEGIN CERTIFICATE-----
MIIBgTCCASegAwIBAgIUbQ6/6aOoCHPN/7rGSlRYf0RHP+YwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKcHJvYmUtdGVzdDAgFw0yNjExMjEyMjAxNTNaGA8yMTI2MTAy
ODIyMDE1M1owFTETMBEGA1UEAwwKcHJvYmUtdGVzdDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABBqUC6NOucZxJ2egMrXb7m9ricKdwnf+SxxjHmczKPwQ+4QqapQv
+9Ze6mkGPyA252fqB7CaJZlefH8v1nYA9TCjUzBRMB0GA1UdDgQWBBQ66BxgQGZT
ywv4kqkwoTrrmC5P6jAfBgNVHSMEGDAWgBQ66BxgQGZTywv4kqkwoTrrmC5P6jAP
BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQCET8Xid5/8oO6VupbE
QI4d4EhDaRQdxx9hWExgcMWBmQIgEMILm6SfViIwL8WbbB0umnHNUo0XK9F5JAQb
4o+4HlM=
-----END CERTIFICATE-----
`

let server: https.Server
let port: number
beforeAll(async () => {
  server = https.createServer({key, cert}, (_req, res) => res.writeHead(200).end('secure'))
  port = await listen(server)
})
afterAll(() => close(server))

it('probes HTTPS without verifying the certificate', async () => {
  const out = await runHttpGet({port, scheme: 'HTTPS', path: '/'}, {podIP: '127.0.0.1', containerId: 'c', ports: []}, 1000)
  expect(out).toEqual({result: 'Success', output: 'secure'})
})
