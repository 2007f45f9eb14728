// `--manifest-url-header-file FILE`: the URL headers in a file (one `Key: Value` per line, blank
// lines and `#` comments skipped), so credentials need not sit in argv where every local user
// can read them. Problems name the file and the line, never the value.
import type {HostFs} from '../host/port.js'
import {InvalidInputError, TooLargeError} from '../util/errors.js'
import {headerProblem} from './header.js'

/** More than any set of headers; a FIFO or /dev/zero given by mistake must not fill memory. */
export const MAX_HEADER_FILE_BYTES = 64 * 1024

/** Pure: the text of a header file → headers grouped by name (first spelling kept). */
export function parseHeaderFile(text: string, file: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const spelling = new Map<string, string>()
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '').trim()
    if (line === '' || line.startsWith('#')) return
    const where = `${file}, line ${i + 1}`
    const colon = line.indexOf(':')
    if (colon <= 0) throw new InvalidInputError(`--manifest-url-header-file ${where}: must be written as Key: Value`)
    const key = line.slice(0, colon).trim()
    const value = line.slice(colon + 1).trim()
    const problem = headerProblem(key, value)
    if (problem) throw new InvalidInputError(`--manifest-url-header-file ${where}: ${problem}`)
    const name = spelling.get(key.toLowerCase()) ?? key
    spelling.set(key.toLowerCase(), name)
    out[name] = [...(Object.hasOwn(out, name) ? out[name]! : []), value]
  })
  return out
}

export async function readHeaderFile(file: string, fs: Pick<HostFs, 'readBounded'>): Promise<Record<string, string[]>> {
  let text: string
  try {
    text = (await fs.readBounded(file, MAX_HEADER_FILE_BYTES)).toString('utf8')
  } catch (err) {
    if (err instanceof TooLargeError) throw new InvalidInputError(`--manifest-url-header-file ${file}: larger than ${MAX_HEADER_FILE_BYTES / 1024} KiB`)
    throw new InvalidInputError(`--manifest-url-header-file ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`)
  }
  return parseHeaderFile(text, file)
}
