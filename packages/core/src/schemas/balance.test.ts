import { describe, expect, it } from "vitest";
import { balanceSchema } from "./index.ts";

const live = {
  total_amount: 100,
  used_amount: 12.5,
  balance: 87.5,
  details: [{ ident: "serverless", name: "Serverless API", amount: 100, balance: 87.5 }],
};

describe("balanceSchema (the live balance endpoint)", () => {
  it("parses the live shape", () => {
    expect(balanceSchema.parse(live)).toEqual(live);
  });

  it("keeps unknown fields, at the top and in details", () => {
    const body = { ...live, currency: "CNY", details: [{ ...live.details[0], expires_at: 1 }] };
    expect(balanceSchema.parse(body)).toEqual(body);
  });

  it("reads numeric strings as numbers", () => {
    const parsed = balanceSchema.parse({ ...live, balance: "87.50", total_amount: "100" });
    expect(parsed).toMatchObject({ balance: 87.5, total_amount: 100 });
  });

  it("reads null amounts and null details as absent", () => {
    const parsed = balanceSchema.parse({ balance: null, used_amount: 1, details: null });
    expect(parsed).toEqual({ used_amount: 1 });
  });

  it("rejects an amount that is not a number", () => {
    expect(balanceSchema.safeParse({ ...live, balance: "plenty" }).success).toBe(false);
  });
});
