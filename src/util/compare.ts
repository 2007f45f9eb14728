// String order by UTF-16 code unit, as Go's sort.Strings (kubectl) orders. localeCompare would
// load ICU's collator, a noticeable part of a CLI start, and orders by locale rules besides.
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
