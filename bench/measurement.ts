/** What a bench measurement is: a named run that returns figures for the table `npm run bench` prints. */
export interface Figure {
  /** What was measured on what: "requests per second, sandbox". */
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  /** How it was measured, briefly. */
  readonly note?: string;
}

export interface Measurement {
  readonly name: string;
  run(): Promise<Figure[]>;
}

/** The middle value (the upper middle of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted[sorted.length >> 1];
  if (middle === undefined) throw new Error("the median of no values");
  return middle;
}
