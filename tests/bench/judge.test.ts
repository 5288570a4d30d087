/** How `npm run bench:guard` judges a figure (bench/judge.ts), with measurements scripted here: no figure is measured. */
import { describe, expect, it } from "vitest";
import { CONFIRMATIONS, judge, meets, type Guard } from "../../bench/judge.ts";

/** A guard whose measurements are `values` in turn, recording how many were taken. */
function scripted(goal: Guard["goal"], values: number[], varies = true) {
  let taken = 0;
  const guard: Guard = { figure: "a figure", goal, varies, measure: async () => values[taken++] ?? Number.NaN };
  return { guard, taken: () => taken };
}

describe("a guarded figure", () => {
  it("meets an at-most goal up to it, an at-least goal from it: both sides of each", () => {
    expect([meets(1.1, { most: 1.1 }), meets(1.1001, { most: 1.1 })]).toEqual([true, false]);
    expect([meets(10, { least: 10 }), meets(9.999, { least: 10 })]).toEqual([true, false]);
  });

  it("within its goal at the first measurement is measured once", async () => {
    const { guard, taken } = scripted({ most: 1.1 }, [1.05, 2, 2]);
    expect(await judge(guard)).toMatchObject({ values: [1.05], value: 1.05, passed: true });
    expect(taken()).toBe(1);
  });

  it("past its goal at the first is measured again, and judged by the median of three: one slow moment does not fail it", async () => {
    expect(CONFIRMATIONS).toBe(3);
    const once = scripted({ most: 1.1 }, [1.4, 1.02, 1.05]);
    expect(await judge(once.guard)).toMatchObject({ values: [1.4, 1.02, 1.05], value: 1.05, passed: true });
    const twice = scripted({ least: 10 }, [8, 12, 9]);
    expect(await judge(twice.guard)).toMatchObject({ value: 9, passed: false });
    expect(twice.taken()).toBe(3);
  });

  it("a figure that cannot vary (a size) is judged by its one measurement", async () => {
    const { guard, taken } = scripted({ most: 6_000 }, [7_023, 5_000, 5_000], false);
    expect(await judge(guard)).toMatchObject({ values: [7_023], passed: false });
    expect(taken()).toBe(1);
  });

  it("takes a measurement that failed again, and fails only when every attempt of one measurement fails, saying why", async () => {
    let calls = 0;
    const notes: string[] = [];
    const flaky: Guard = {
      figure: "a figure",
      goal: { most: 1.1 },
      varies: true,
      measure: async () => {
        calls += 1;
        if (calls === 1) throw new Error("socket hang up");
        return 1.05;
      },
    };
    expect(await judge(flaky, (detail) => notes.push(detail))).toMatchObject({ values: [1.05], passed: true });
    expect(notes).toEqual(["measurement 1 failed (socket hang up); measuring again"]);
    let attempts = 0;
    const broken: Guard = {
      ...flaky,
      measure: async () => {
        attempts += 1;
        throw new Error(`refused ${attempts}`);
      },
    };
    await expect(judge(broken)).rejects.toThrow("refused 3");
    expect(attempts).toBe(CONFIRMATIONS);
  });
});
