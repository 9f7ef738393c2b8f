import { App } from "../../components/app.tsx";

export function SidePanelApp() {
  return <App surface="sidepanel" />;
}
