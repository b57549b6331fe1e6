// The page's first script (the build bundles it alone as js/engine-start.js, loaded async before the styles): starts
// loading Pyodide and the engine at once, before the app's script has run and its catalog is read. The app joins
// this load (engine-load.js, loadEngine) when it is ready to show progress.
import { startEngineLoad } from "./loader.js";

startEngineLoad();
