/**
 * The build mode of store builds (`wxt zip --mode store`); every other mode is a development
 * build. Code compares `import.meta.env.MODE` with it inline, so that Vite's replacement lets the
 * minifier drop what store builds must not carry.
 */
export const STORE_MODE = "store";
