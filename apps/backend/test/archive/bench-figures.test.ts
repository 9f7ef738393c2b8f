import { expect, it } from "vitest";
import { columns } from "../../bench/lib/report.ts";
import { p99Figure } from "../../bench/suites/archiving.ts";

/** Item 9 of `pnpm bench` judges each p99 against twice its same-run reference. */
it("reports a p99 within 2× its no-archiving reference as met, and one over it as missed by how much", () => {
  const within = p99Figure("GET /api/me p99 while archiving [pglite]", [9, 5]);
  expect(within).toMatchObject({ met: true, ratio: 1.8 });
  expect(columns(within)).toEqual([
    "GET /api/me p99 while archiving [pglite]",
    "×1.8",
    "9 ms",
    "no archiving, same run: 5 ms",
    "≤ 2× the same p99 without archiving",
    "met",
  ]);
  const over = p99Figure("webhook delivery p99 while archiving [pg]", [25, 5]);
  expect(over).toMatchObject({ met: false, shortBy: "5× the reference" });
  expect(columns(over)[5]).toBe("MISSED");
});
