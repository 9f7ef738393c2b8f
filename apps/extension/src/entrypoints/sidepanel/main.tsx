import { mount } from "../../lib/views/mount.tsx";
import { SidePanelApp } from "./app.tsx";

// WXT's storage library is a chunk of its own, fetched only when a stored value needs migrating.
mount(<SidePanelApp />, { items: () => import("../../lib/shared/storage.ts") });
