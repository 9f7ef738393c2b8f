import { render } from "preact";
render(<p>Overture</p>, document.getElementById("app")!);
