import { mount } from "../../lib/mount.tsx";
import { PopupApp } from "./app.tsx";

mount(<PopupApp />, "popup");
