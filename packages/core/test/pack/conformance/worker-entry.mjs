// Entry for workerd: `workerd test` calls test(); a throw fails it.
import { runConformance } from "./conformance.mjs";

export default {
  async test() {
    const result = await runConformance();
    console.log(`CONFORMANCE ${JSON.stringify(result)}`);
    if (result.failed.length > 0)
      throw new Error(`conformance failed: ${JSON.stringify(result.failed)}`);
  },
};
