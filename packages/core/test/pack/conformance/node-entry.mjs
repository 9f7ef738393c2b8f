// Entry for Node, Deno and Bun: runs the conformance subset and prints one JSON line.
import { runConformance } from "./conformance.mjs";

const result = await runConformance();
console.log(`CONFORMANCE ${JSON.stringify(result)}`);
