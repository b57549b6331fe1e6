// The page's first script (the build bundles it alone as js/engine-start.js, loaded async before the styles): starts
// loading Pyodide and the engine at once, before the app's script has run and its catalog is read. The app joins
// this load (engine-load.js, loadEngine) when it is ready to show progress. The script's composition root: it makes
// the loader's store (its own, as the bundle keeps its own copy of every module) and gives it to the load.
import { pageBackend } from "../base/local-store.js";
import { startEngineLoad } from "./loader.js";
import { createLoaderStore } from "./loader-store.js";

startEngineLoad(createLoaderStore(pageBackend()));
