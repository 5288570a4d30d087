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
      window.open(0);
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
