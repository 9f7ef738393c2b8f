import { mount } from "../../lib/views/mount.tsx";
import { PopupApp } from "./app.tsx";

// WXT's storage library is a chunk of its own, fetched only when a stored value needs migrating.
mount(<PopupApp />, { items: () => import("../../lib/shared/storage.ts"), bodyClass: "popup" });
