#!/usr/bin/env node
// The command as a file that exists before the build: pnpm links a workspace package's bins when
// it installs, and a bin pointing into dist/ (built later) warned "Failed to create bin" in every
// workspace on a fresh clone. The CLI itself is dist/cli/overture-webhooks.js, run on import.
import "../dist/cli/overture-webhooks.js";
