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
