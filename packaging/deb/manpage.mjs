// Writes kube-node(1) to stdout for the Debian package (scripts/deb.sh): the help pages the build
// rendered (dist/help, the same text as `kube-node COMMAND --help`) set as a manual page, so the
// manual cannot drift from the help.
import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const help = join(root, 'dist/help')
const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** Text as groff shows it verbatim: backslashes and minus signs escaped, no line read as a request. */
const verbatim = (text) =>
  text
    .trimEnd()
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n')

const rootHelp = readFileSync(join(help, '_root.txt'), 'utf8')
const summary = rootHelp.split('\n')[0]
// Topic pages (get, describe, delete) only list their commands, which have pages of their own.
const commands = readdirSync(help)
  .filter((f) => f.endsWith('.txt') && f !== '_root.txt')
  .map((f) => f.slice(0, -'.txt'.length))
  .sort()

const page = [
  `.TH KUBE\\-NODE 1 "" "kube-node ${version}" "User Commands"`,
  '.SH NAME',
  "kube\\-node \\- the kubelet's static\\-pod path as a command\\-line tool",
  '.SH SYNOPSIS',
  '.B kube\\-node',
  '.I command',
  '[\\fIflags\\fR]',
  '.SH DESCRIPTION',
  verbatim(summary),
  '.PP',
  'The commands and their flags follow, as \\fBkube\\-node\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR prints them.',
  '.SH COMMANDS',
  ...commands.flatMap((id) => [`.SS kube\\-node ${id.replaceAll(':', ' ')}`, '.nf', verbatim(readFileSync(join(help, `${id}.txt`), 'utf8')), '.fi']),
  '.SH FILES',
  '.TP',
  '.I /etc/kube\\-node/config.yaml',
  'The KubeletConfiguration that kube\\-node.service passes with \\fB\\-\\-config\\fR.',
  '.TP',
  '.I /etc/kubernetes/manifests',
  'The static pod manifests kube\\-node.service keeps running.',
  '.TP',
  '.I /var/lib/kube\\-node',
  'Pod data, recorded status and events, and the lock file (\\fB\\-\\-root\\-dir\\fR).',
  '.TP',
  '.I /var/log/pods',
  'Container logs (\\fB\\-\\-pod\\-logs\\-dir\\fR).',
  '.SH SEE ALSO',
  '.BR systemctl (1),',
  '.BR containerd (8)',
  '',
]
process.stdout.write(page.join('\n'))
