import type { EmulatorClock } from "./clock/clock.ts";
import type { GrantService } from "./oauth/grants.ts";
import type { ProxyTokenService } from "./oauth/proxy-token.ts";
import type { ResolvedOptions } from "./options.ts";
import type { Saver } from "./persist/state-file.ts";
import type { FaultState } from "./state/faults.ts";
import type { EmulatorState } from "./state/store.ts";
import type { TaskEngine } from "./tasks/engine.ts";
import type { FileLinks } from "./tasks/file-links.ts";
import type { Tracker } from "./util/tracker.ts";
import type { WebhookEngine } from "./webhooks/engine.ts";

/** The emulator's parts, built once by `createPlatformEmulator` and handed to every route. */
export interface EmulatorContext {
  options: ResolvedOptions;
  state: EmulatorState;
  clock: EmulatorClock;
  tracker: Tracker;
  faults: FaultState;
  grants: GrantService;
  proxy: ProxyTokenService;
  tasks: TaskEngine;
  links: FileLinks;
  webhooks: WebhookEngine;
  /** Saves the state to `dataDir`/`stateFile` (does nothing without one). */
  persistence: Saver;
}
