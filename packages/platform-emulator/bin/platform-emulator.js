#!/usr/bin/env node
// The command as a file that exists before the build: pnpm links a workspace package's bins when
// it installs, and bins pointing into dist/ (built later) warned "Failed to create bin" on every
// fresh clone. The CLI itself is dist/cli.js, which runs on import.
import "../dist/cli.js";
