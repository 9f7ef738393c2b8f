/** Small HTTP helpers for the headless demo: JSON with a clear error, an SSE reader. */
export async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Reads a Server-Sent Events stream and calls `onEvent` per event until `signal` aborts. */
export async function readEvents(
  response: Response,
  onEvent: (event: { id?: string; event?: string; data: string }) => void,
): Promise<void> {
  if (!response.body) throw new Error("event stream has no body");
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: { id?: string; event?: string; data: string } = { data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("id:")) event.id = line.slice(3).trim();
        else if (line.startsWith("event:")) event.event = line.slice(6).trim();
        else if (line.startsWith("data:")) event.data += line.slice(5).trimStart();
      }
      if (event.data) onEvent(event);
    }
  }
}
