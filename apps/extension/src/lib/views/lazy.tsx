import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

/** A component whose code is a separate chunk, fetched the first time it renders. */
export interface LazyComponent<P> {
  (props: P): preact.JSX.Element;
  /** Starts fetching the chunk (once), e.g. when the person is likely to need it soon. */
  preload(): Promise<unknown>;
  /** Whether the chunk has arrived (it then renders at once, with no busy box first). */
  loaded(): boolean;
}

/**
 * Keeps a view's first chunk small (issue 16): what is not on the first screen comes from
 * `load`, a dynamic `import()`, and renders an empty busy box for the few milliseconds the
 * extension takes to read it from its own files. Preact's `lazy` lives in `preact/compat`,
 * which would itself weigh more than the code it spares.
 */
export function lazy<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed read is tried again the next time the component renders.
        pending = undefined;
        throw error;
      },
    ));

  function Lazy(props: P) {
    const [, setArrived] = useState(false);
    // Fetching starts with the first render, not a frame later in the effect.
    if (!loaded) preload().catch(() => undefined);
    const Component = loaded;
    useEffect(() => {
      if (Component) return;
      let alive = true;
      preload().then(
        () => {
          if (alive) setArrived(true);
        },
        (error: unknown) => {
          console.error("a view's code could not be loaded", error);
        },
      );
      return () => {
        alive = false;
      };
    }, []);
    return Component ? <Component {...props} /> : <div aria-busy="true" />;
  }
  Lazy.preload = preload;
  Lazy.loaded = () => loaded !== undefined;
  return Lazy;
}
