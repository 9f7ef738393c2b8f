import { mount } from "../../lib/mount.tsx";
import { SidePanelApp } from "./app.tsx";

mount(<SidePanelApp />);
