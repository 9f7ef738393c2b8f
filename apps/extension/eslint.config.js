import { overture } from "@overture/eslint-config";

export default overture({ tsconfigRootDir: import.meta.dirname, browser: true });
