import { mount } from "../../lib/mount.tsx";
import { PrivacyPage } from "./app.tsx";

mount(<PrivacyPage />, { items: () => import("../../lib/storage.ts") });
