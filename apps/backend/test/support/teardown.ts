/**
 * Runs a suite's clean-up steps in order and names any step that is slow, so a hook timeout in a
 * loaded CI run says which part of the stack did not stop (the test's own result stands apart).
 */
export async function tearDown(
  steps: [name: string, step: () => Promise<unknown>][],
): Promise<void> {
  for (const [name, step] of steps) {
    const started = Date.now();
    const slow = setInterval(() => {
      console.warn(`[teardown] still waiting for ${name} after ${Date.now() - started} ms`);
    }, 5_000);
    try {
      await step();
    } finally {
      clearInterval(slow);
    }
  }
}
