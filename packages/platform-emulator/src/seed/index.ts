export { parseSeed, seedSchema } from "./schema.ts";
export type { EmulatorSeed, EmulatorSeedInput } from "./schema.ts";
export { DEFAULT_SEED } from "./default-seed.ts";
export { initialsAvatar } from "./avatar.ts";
export { seedFor } from "./seed-for.ts";
export type { SeedForInput } from "./seed-for.ts";
