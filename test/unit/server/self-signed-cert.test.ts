// The API's certificate as a TLS client checks it: for the loopback names, valid now, self-signed
// and matching its key. (The real kubectl accepting it is test/e2e/kubectl.test.ts.)
import {createPrivateKey, X509Certificate} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {selfSignedCertificate} from '../../../src/server/self-signed-cert.js'

const NOW = new Date('2026-11-27T00:00:00Z')

describe('selfSignedCertificate', () => {
  const c = selfSignedCertificate({ips: ['127.0.0.1', '::1'], dnsNames: ['localhost'], now: NOW, days: 3650})
  const x = new X509Certificate(c.certPem)

  it('names the loopback addresses and localhost, and nothing else', () => {
    expect(x.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost')
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(x.checkIP('::1')).toBeDefined()
    expect(x.checkHost('localhost')).toBe('localhost')
    expect(x.checkIP('10.0.0.1')).toBeUndefined()
    expect(x.checkHost('evil.example')).toBeUndefined()
  })

  it('is self-signed by the key it comes with, a CA for itself, valid from an hour before now', () => {
    expect(x.verify(x.publicKey)).toBe(true)
    expect(x.checkPrivateKey(createPrivateKey(c.keyPem))).toBe(true)
    expect(x.ca).toBe(true)
    expect(x.issuer).toBe(x.subject)
    expect(new Date(x.validFrom).toISOString()).toBe('2026-11-26T23:00:00.000Z')
    expect(new Date(x.validTo).toISOString()).toBe('2036-11-24T00:00:00.000Z')
  })

  it('writes dates after 2049 as GeneralizedTime, and a new key and serial every time', () => {
    const late = new X509Certificate(selfSignedCertificate({ips: ['10.0.0.5'], dnsNames: [], now: new Date('2049-12-31T00:00:00Z'), days: 2}).certPem)
    expect(new Date(late.validTo).toISOString()).toBe('2050-01-02T00:00:00.000Z')
    const again = new X509Certificate(selfSignedCertificate({ips: ['127.0.0.1'], dnsNames: [], now: NOW, days: 1}).certPem)
    expect(again.serialNumber).not.toBe(x.serialNumber)
    expect(again.publicKey.export({type: 'spki', format: 'der'}).equals(x.publicKey.export({type: 'spki', format: 'der'}))).toBe(false)
  })
})
