// The few Node APIs the benchmark uses, declared here so that core stays typechecked without
// @types/node (src/ must not see Node types); this file is only in bench/tsconfig.json.
declare module "node:crypto" {
  interface Hmac {
    update(data: string | Uint8Array): Hmac;
    digest(encoding: "hex"): string;
  }
  export function createHmac(algorithm: "sha256", key: string | Uint8Array): Hmac;
  export function hash(algorithm: "sha256", data: Uint8Array, outputEncoding: "binary"): string;
}

declare const process: {
  readonly env: Readonly<Record<string, string | undefined>>;
  cpuUsage(previous?: { user: number; system: number }): { user: number; system: number };
};
