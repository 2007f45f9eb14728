export const SIZE: number
export const POD: string
/** name → [make, expected outcome, pattern the issues must match when refused] */
export const SHAPES: Record<string, [() => string, 'refused' | 'accepted', string?]>
