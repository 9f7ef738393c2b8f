export * from "./users.ts";
export * from "./auth.ts";
export * from "./credentials.ts";
export * from "./tasks.ts";
export * from "./archive.ts";
export * from "./shares.ts";
export * from "./dev-relay.ts";
