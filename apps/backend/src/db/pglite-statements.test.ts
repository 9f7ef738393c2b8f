import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { statementOf } from "../../test/support/sql.ts";
import { createStatementCache } from "./pglite-statements.ts";

const byId = (id: number) => statementOf(sql`select * from tasks where id = ${id}`);
const byName = (name: string) => statementOf(sql`select * from users where login = ${name}`);
const byBoth = (id: number, name: string) => statementOf(sql`select ${id} + 1, ${name}::text`);

describe("PGlite's prepared statements", () => {
  it("prepares a new text, then only executes it with each run's values", () => {
    const cache = createStatementCache();
    const first = cache.plan([byId(1)]);
    expect(first.prepare).toBe("prepare overture_s1 as select * from tasks where id = $1");
    expect(first.execute).toBe("execute overture_s1(1)");
    first.prepared();
    const again = cache.plan([byId(2), byBoth(3, "it's")]);
    expect(again.prepare).toBe("prepare overture_s2 as select $1 + 1, $2::text");
    expect(again.execute).toBe("execute overture_s1(2);\nexecute overture_s2(3,  $ov$it's$ov$)");
  });

  it("prepares a text again when the PREPARE never ran", () => {
    const cache = createStatementCache();
    cache.plan([byId(1)]);
    expect(cache.plan([byId(1)]).prepare).toMatch(/^prepare .* as select \* from tasks/);
  });

  it("prepares a text used twice in one script once", () => {
    const cache = createStatementCache();
    const plan = cache.plan([byId(1), byId(2)]);
    expect(plan.prepare?.split(";")).toHaveLength(1);
    expect(plan.execute).toBe("execute overture_s1(1);\nexecute overture_s1(2)");
  });

  it("deallocates the oldest statement past its limit", () => {
    const cache = createStatementCache(2);
    cache.plan([byId(1)]).prepared();
    cache.plan([byName("a")]).prepared();
    const third = cache.plan([byBoth(1, "b")]);
    expect(third.prepare).toBe(
      "deallocate overture_s1;\nprepare overture_s3 as select $1 + 1, $2::text",
    );
    third.prepared();
    expect(cache.plan([byName("c")]).prepare).toBeUndefined();
    expect(cache.plan([byId(1)]).prepare).toMatch(/deallocate overture_s2;\nprepare overture_s4/);
  });

  it("starts from nothing after a PREPARE that failed part way", () => {
    const cache = createStatementCache();
    cache.plan([byId(1)]).prepared();
    cache.plan([byName("a")]); // its PREPARE fails
    cache.forget();
    const next = cache.plan([byId(2)]);
    expect(next.prepare).toBe(
      "deallocate all;\nprepare overture_s3 as select * from tasks where id = $1",
    );
  });
});
