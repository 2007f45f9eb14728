// Arguments as a POSIX shell reads them back: a command printed for copy-paste runs as printed,
// whatever a path or name holds (spaces, quotes, `$`, `;`). Pure.

/** Characters a shell takes literally outside quotes. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/

export function shellQuote(arg: string): string {
  if (PLAIN.test(arg)) return arg
  return `'${arg.replace(/'/g, `'\\''`)}'`
}

/** One command line from its arguments. */
export function shellCommand(args: readonly string[]): string {
  return args.map(shellQuote).join(' ')
}
