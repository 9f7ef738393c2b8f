export interface CapturedDelivery {
  url: string;
  headers: Headers;
  body: string;
}

/**
 * A `fetch` for the emulator's webhook deliveries that never touches the network: it records
 * each request and answers with the next scripted status (then 200).
 */
export function captureFetch(statuses: number[] = []): {
  fetch: typeof fetch;
  deliveries: CapturedDelivery[];
} {
  const deliveries: CapturedDelivery[] = [];
  const queue = [...statuses];
  const fake = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    deliveries.push({
      url,
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : "",
    });
    const status = queue.shift() ?? 200;
    const body = [101, 204, 205, 304].includes(status) ? null : "ok";
    return Promise.resolve(new Response(body, { status }));
  };
  return { fetch: fake, deliveries };
}

export function eventOf(d: CapturedDelivery): {
  event_id: string;
  task_id: string;
  status: string;
  output: Record<string, unknown>;
  usage_info: Record<string, unknown>;
} {
  return JSON.parse(d.body) as ReturnType<typeof eventOf>;
}
