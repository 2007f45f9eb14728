// A self-signed X.509 certificate for the API's TLS listener, made in memory at every start of
// watch (its key never touches the disk). kubectl sends a credential only over TLS (client-go
// drops tokens for http:// servers), so the kubeconfig carries this certificate as its
// certificate-authority-data and kubectl proves it speaks to this watch before sending the
// token. node:crypto makes keys and signatures but no certificates: the DER is assembled here
// (RFC 5280: one ECDSA P-256 certificate, its subjectAltName naming the loopback addresses).
import {generateKeyPairSync, randomBytes, sign} from 'node:crypto'
import {isIP} from 'node:net'

export interface SelfSignedCertificate {
  certPem: string
  keyPem: string
}

const SEQUENCE = 0x30
const SET = 0x31
const INTEGER = 0x02
const BIT_STRING = 0x03
const OCTET_STRING = 0x04
const OID = 0x06
const UTF8_STRING = 0x0c
const UTC_TIME = 0x17
const GENERALIZED_TIME = 0x18
const BOOLEAN = 0x01

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content)
  const n = body.length
  const len = n < 0x80 ? Buffer.from([n]) : lengthBytes(n)
  return Buffer.concat([Buffer.from([tag]), len, body])
}

function lengthBytes(n: number): Buffer {
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number)
  const out = [40 * arcs[0]! + arcs[1]!]
  for (const arc of arcs.slice(2)) {
    const groups: number[] = []
    for (let v = arc; ; v = Math.floor(v / 128)) {
      groups.unshift((v % 128) | (groups.length > 0 ? 0x80 : 0))
      if (v < 128) break
    }
    out.push(...groups)
  }
  return tlv(OID, Buffer.from(out))
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime after. */
function time(d: Date): Buffer {
  const iso = d.toISOString() // 2026-11-27T00:22:14.123Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '') + 'Z'
  return d.getUTCFullYear() < 2050 ? tlv(UTC_TIME, Buffer.from(digits.slice(2))) : tlv(GENERALIZED_TIME, Buffer.from(digits))
}

function name(commonName: string): Buffer {
  return tlv(SEQUENCE, tlv(SET, tlv(SEQUENCE, oid('2.5.4.3'), tlv(UTF8_STRING, Buffer.from(commonName)))))
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number))
  // IPv6: expand "::" and write eight 16-bit groups.
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined]
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
  const out = Buffer.alloc(16)
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2))
  return out
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return tlv(SEQUENCE, oid(id), ...(critical ? [tlv(BOOLEAN, Buffer.from([0xff]))] : []), tlv(OCTET_STRING, value))
}

const ECDSA_WITH_SHA256 = tlv(SEQUENCE, oid('1.2.840.10045.4.3.2'))

/** A certificate for these IP addresses and DNS names, valid from an hour before `now` for `days`. */
export function selfSignedCertificate(opts: {ips: string[]; dnsNames: string[]; now: Date; days: number; commonName?: string}): SelfSignedCertificate {
  const {privateKey, publicKey} = generateKeyPairSync('ec', {namedCurve: 'prime256v1'})
  const serial = randomBytes(16)
  serial[0] = (serial[0]! & 0x7f) | 0x01 // positive and never zero
  const subject = name(opts.commonName ?? 'kube-node')
  const altNames = [...opts.ips.map((ip) => tlv(0x87, ipBytes(ip))), ...opts.dnsNames.map((d) => tlv(0x82, Buffer.from(d, 'ascii')))]
  const extensions = tlv(
    0xa3,
    tlv(
      SEQUENCE,
      // CA:TRUE: the kubeconfig names this very certificate as the authority to trust.
      extension('2.5.29.19', true, tlv(SEQUENCE, tlv(BOOLEAN, Buffer.from([0xff])))),
      // digitalSignature and keyCertSign.
      extension('2.5.29.15', true, tlv(BIT_STRING, Buffer.from([0x02, 0x84]))),
      // serverAuth.
      extension('2.5.29.37', false, tlv(SEQUENCE, oid('1.3.6.1.5.5.7.3.1'))),
      extension('2.5.29.17', false, tlv(SEQUENCE, ...altNames)),
    ),
  )
  const notBefore = new Date(opts.now.getTime() - 3_600_000)
  const notAfter = new Date(opts.now.getTime() + opts.days * 86_400_000)
  const tbs = tlv(
    SEQUENCE,
    tlv(0xa0, tlv(INTEGER, Buffer.from([0x02]))), // v3
    tlv(INTEGER, serial),
    ECDSA_WITH_SHA256,
    subject,
    tlv(SEQUENCE, time(notBefore), time(notAfter)),
    subject,
    publicKey.export({type: 'spki', format: 'der'}),
    extensions,
  )
  const signature = sign('sha256', tbs, privateKey)
  const der = tlv(SEQUENCE, tbs, ECDSA_WITH_SHA256, tlv(BIT_STRING, Buffer.from([0x00]), signature))
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`
  return {certPem, keyPem: privateKey.export({type: 'pkcs8', format: 'pem'}).toString()}
}
