/**
 * The billing check's measurement counts a charge that cannot wait for it. The cap's probe sends
 * one create beyond the cap and expects it refused, but against an honest server whose job ended
 * just before, the create starts a job that succeeds and is charged; the balance the billing check
 * reads must include it (a false "the balance falls by the quotes" verdict otherwise, seen against
 * the independent reference server, whose jobs take 200 to 800 ms).
 */
import { describe, expect, it } from "vitest";
import { Charges, type MeasuredCharge } from "../../conformance/coordination.ts";

const charge = (credits: number): MeasuredCharge => ({
  what: "POST /v1/images/i-a (job)",
  credits,
  charged: () => true,
  op: {} as MeasuredCharge["op"],
  spec: { method: "post", path: "/v1/images/i-a", headers: {} },
});

describe("an unplanned charge during the billing measurement", () => {
  it("joins a measurement in progress, past its room, and the measurement waits for it", async () => {
    const charges = new Charges();
    let finishProbe!: () => void;
    let probeStarted!: () => void;
    const started = new Promise<void>((resolve) => (probeStarted = resolve));
    const settled = charges.measure(async (window) => {
      window.open({ cap: 1, own: 0 });
      void charges.unplanned(async (report) => {
        report(charge(12));
        probeStarted();
        await new Promise<void>((resolve) => (finishProbe = resolve));
      });
      await started;
      const order: string[] = [];
      const done = window.settled().then((beside) => (order.push("settled"), beside));
      await Promise.resolve();
      order.push("probe ends");
      finishProbe();
      return { beside: await done, order };
    });
    const { beside, order } = await settled;
    expect(beside.map((entry) => entry.credits)).toEqual([12]);
    expect(order).toEqual(["probe ends", "settled"]);
  });

  it("makes a measurement about to start wait until it is done", async () => {
    const charges = new Charges();
    const events: string[] = [];
    let finish!: () => void;
    const probe = charges.unplanned(() =>
      new Promise<void>((resolve) => (finish = resolve)).then(() => void events.push("probe done")),
    );
    const measured = charges.measure(async () => void events.push("measuring"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([]);
    finish();
    await Promise.all([probe, measured]);
    expect(events).toEqual(["probe done", "measuring"]);
  });
});

describe("charges pledged to the billing measurement", () => {
  it("join it past its room once it opens, and it settles only after each has ended, telling each the verdict", async () => {
    const charges = new Charges();
    const pledge = charges.pledge(2);
    const verdicts: boolean[] = [];
    const joined: boolean[] = [];
    const pledged = [0, 1].map(() =>
      pledge.charge(async (report, measured) => {
        joined.push(measured);
        report({ ...charge(19), verdict: (agreed) => void verdicts.push(agreed) });
        await new Promise((resolve) => setTimeout(resolve, 10));
      }),
    );
    const beside = await charges.measure(async (window) => {
      window.open({ cap: 1, own: 0 });
      const settled = await window.settled();
      for (const entry of settled) entry.verdict?.(true);
      return settled;
    });
    await Promise.all(pledged);
    expect(joined).toEqual([true, true]);
    expect(beside.map((entry) => entry.credits)).toEqual([19, 19]);
    expect(verdicts).toEqual([true, true]);
  });

  it("are told no agreement where the measurement gave no verdict, and run unmeasured once it has ended", async () => {
    const charges = new Charges();
    const pledge = charges.pledge(1);
    const verdicts: boolean[] = [];
    const first = pledge.charge(async (report, measured) => {
      report({ ...charge(19), verdict: (agreed) => void verdicts.push(agreed) });
      return measured;
    });
    // The measurement ends without a verdict (its balance could not be read).
    await charges.measure(async (window) => {
      window.open({ cap: 1, own: 0 });
      await window.settled();
    });
    expect(await first).toBe(true);
    expect(verdicts).toEqual([false]);
    expect(await pledge.charge(async (_report, measured) => measured)).toBe(false);
  });

  it("released, no longer hold the measurement open", async () => {
    const charges = new Charges();
    const pledge = charges.pledge(3);
    const measured = charges.measure(async (window) => {
      window.open({ cap: 1, own: 0 });
      return window.settled();
    });
    pledge.release();
    expect(await measured).toEqual([]);
  });
});

describe("the room of a measurement with charges pledged to it", () => {
  /** The order in which a measurement on a cap of `cap` with `own` jobs and `pledged` pledged charges lets `others` other charges run. */
  async function order(cap: number, own: number, pledged: number, others: number): Promise<string[]> {
    const charges = new Charges();
    const pledge = charges.pledge(pledged);
    const events: string[] = [];
    const pledges = Array.from({ length: pledged }, () => pledge.charge(async () => void events.push("pledged")));
    const measured = charges.measure(async (window) => {
      window.open({ cap, own });
      const rest = Array.from({ length: others }, () => charges.charge(19, async () => void events.push("other")));
      await window.settled();
      events.push("settled");
      // Wrapped: returned bare, the measurement would wait for the charges that wait for it.
      return { rest };
    });
    await Promise.all([...pledges, ...(await measured).rest]);
    return events;
  }

  it("goes to the pledged charges first: with the cap's rounds full, another charge of exact price waits until the measurement is done", async () => {
    expect(await order(1, 0, 1, 1)).toEqual(["pledged", "settled", "other"]);
    expect(await order(3, 1, 5, 1)).toEqual([...Array(5).fill("pledged"), "settled", "other"]);
  });

  it("lets others fill the slots the measurement's own and pledged jobs leave free in their last round of the cap", async () => {
    // 1 own + 3 pledged on a cap of 3: two rounds, the second with two free slots.
    expect((await order(3, 1, 3, 3)).filter((event) => event === "other" || event === "settled")).toEqual([
      "other",
      "other",
      "settled",
      "other",
    ]);
    // Fewer than the cap: the cap's other slots.
    expect((await order(10, 4, 0, 7)).indexOf("settled")).toBe(6);
  });
});
