/** Durations and prices are sums of decimals; this keeps binary floating-point noise out of them. */
export const clean = (value: number): number => Math.round(value * 1e6) / 1e6;
