/**
 * The generated client's route table of the operations outside the areas: which of them the client
 * may resend when a response is lost. A GET is safe to resend, unless each request is charged
 * (the specification's stock searches: 10 credits per search, including empty results); a POST
 * never is. Mutation testing found the per-request exception unguarded.
 */
import { describe, expect, it } from "vitest";
import { deriveRouteTable } from "../../generators/client.ts";
import { model } from "../support/description.ts";

describe("the generated client's other operations", () => {
  const resendable = Object.fromEntries(
    Object.entries(deriveRouteTable(model).operations).map(([name, [, , , resend]]) => [name, resend]),
  );

  it("resend a lost free GET, never a search charged per request nor a POST", () => {
    expect(resendable).toEqual({
      getAccountCredits: true,
      listModels: true,
      quoteCost: false,
      createUpload: false,
      createPost: false,
      searchStockImages: false,
      searchStockSoundEffects: false,
      searchStockMusic: false,
    });
  });
});
