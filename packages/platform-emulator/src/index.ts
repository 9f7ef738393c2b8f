/**
 * @overture/platform-emulator: a faithful local stand-in for the platform of
 * docs/platform-interface.md, for tests, demos and other apps.
 *
 * @packageDocumentation
 */
export { createPlatformEmulator } from "./emulator.ts";
export type { PlatformEmulator } from "./emulator.ts";
export {
  DEFAULT_BASE_URL,
  DEFAULT_RETRY_DELAYS_MS,
  TIMING_PRESETS,
  resolveOptions,
} from "./options.ts";
export type {
  BasicAuthEncoding,
  DurationRange,
  PlatformEmulatorOptions,
  QueryReading,
  RefreshRotation,
  ResolvedOptions,
  TaskTiming,
} from "./options.ts";
export { PROFILE_DEFAULTS, PROFILES } from "./profile.ts";
export type { Alternating, ProfileName, ResponseShape } from "./profile.ts";
export { createClock } from "./clock/clock.ts";
export type { ClockOptions, ClockSource, EmulatorClock, TimerId } from "./clock/clock.ts";
export { ControlError } from "./control/handle.ts";
export type { ApplicationPatch, EmulatorControl, FaultControl } from "./control/handle.ts";
export type { TaskFaultMode, WebhookFaults } from "./state/faults.ts";
export type { ConsoleSnapshot, ControlTaskView, DeliveryView } from "./control/views.ts";
export { CONTROL_PREFIX } from "./routes/control.ts";
export type { AttemptFailure, AttemptLog, DeliveryState } from "./webhooks/types.ts";
export { DEFAULT_SEED, initialsAvatar, parseSeed, seedFor, seedSchema } from "./seed/index.ts";
export type { EmulatorSeed, EmulatorSeedInput, SeedForInput } from "./seed/index.ts";
