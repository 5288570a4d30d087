/**
 * The independent server's accounts and markers, which its declaration in the tests repeats. Keys
 * have a fixed live prefix and a secret part. The main account's cap is 16, above the Ultra plan's
 * starting 10 (the cap rises with sustained usage).
 */
import type { AccountSettings } from "./accounts.ts";

export const INDEPENDENT_CAP = 16;
export const SPEND_LIMIT_CREDITS = 300;

export const KEYS = {
  main: "indep_live_7Qm2vK9xRw4Lp8Ts",
  free: "indep_live_f3Hn6Yc1Bq5Zj0Ud",
  cooldown: "indep_live_c8Wd2Ne7Gs4Ak1Xo",
  spendLimit: "indep_live_s5Pv9Jt3Mh6Ry2Ec",
  legacy: "indep_live_l1Kz4Fu8Vb2Qn7Wi",
  ultra: "indep_live_u6Rb3Xe9Km2Tq5Ha",
  discount: "indep_live_d2Lw8Cs5Pf1Yn4Gv",
  other: "indep_live_o7Tg3Vn8Qs1Kw5Ym",
  otherSecond: "indep_live_o2Hb9Rc4Xe6Jp3Lu",
} as const;

/** The cap of the second account the sequences own. */
export const OTHER_CAP = 8;

/** The keys of an account that only the per-IP burst uses: five, as 2,401 requests at most 600 a key take. */
export const CROWD_KEYS = [
  "indep_live_r1Tc5Mw8Zp3Lx6Qa",
  "indep_live_r2Hv7Ks1Dn9Jb4Ye",
  "indep_live_r3Pq6Wf2Gt8Nc5Uo",
  "indep_live_r4Xm9Bd3Sk7Vh1Ri",
  "indep_live_r5Ej2Lz6Cy4Fw8Ta",
];

/** The Ultra account's free image generations a day (all image models qualify), and the discount account's percent. */
export const DAILY_FREE_IMAGES = 2;
export const DISCOUNT_PERCENT = 10;

/** Prompt texts that make a job fail, time out, or be blocked by moderation. */
export const MARKERS = {
  failed: "{{indep:fail}}",
  timeout: "{{indep:timeout}}",
  moderation: "{{indep:block:{reason}}}",
} as const;

/** Clips the team hosts for testing, with the seconds the server measures for them (its declaration gives them). */
export const HOSTED_CLIPS: Readonly<Record<string, number>> = {
  "https://cdn.independent.test/clips/four-seconds.mp4": 4,
  "https://cdn.independent.test/clips/seven-seconds.mp4": 7,
};

/** The model retired for the legacy account. */
export const RETIRED_LABEL = "V-G";

const paid = { cap: INDEPENDENT_CAP, monthlyLimit: 200_000, extraCredits: 50_000 } as const;

/**
 * `standard`: the main account pays standard prices (a Creator plan). `discounted`: an Ultra plan
 * with a 15 % discount and a daily allowance of free image generations, as a first run against a
 * new implementation may meet.
 */
export function accountSettings(main: "standard" | "discounted"): AccountSettings[] {
  const mainPlan =
    main === "standard"
      ? { plan: "creator" as const }
      : { plan: "ultra" as const, discountPercent: 15, dailyFreeImages: 4 };
  return [
    { name: "main", keys: [KEYS.main], ...paid, ...mainPlan },
    { name: "free", keys: [KEYS.free], plan: "free", cap: 0, monthlyLimit: 0, extraCredits: 2_000 },
    { name: "cooldown", keys: [KEYS.cooldown], plan: "creator", ...paid, cap: 4 },
    { name: "spend-limit", keys: [KEYS.spendLimit], plan: "creator", ...paid, spendLimit: SPEND_LIMIT_CREDITS },
    { name: "legacy", keys: [KEYS.legacy], plan: "creator", ...paid, retired: [RETIRED_LABEL] },
    { name: "ultra", keys: [KEYS.ultra], plan: "ultra", ...paid, dailyFreeImages: DAILY_FREE_IMAGES },
    { name: "discount", keys: [KEYS.discount], plan: "creator", ...paid, discountPercent: DISCOUNT_PERCENT },
    { name: "crowd", keys: CROWD_KEYS, plan: "creator", ...paid },
    { name: "other", keys: [KEYS.other, KEYS.otherSecond], plan: "creator", ...paid, cap: OTHER_CAP },
  ];
}
