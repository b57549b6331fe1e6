// Starts loading Pyodide and the engine with the page, before the app's own modules have arrived and its
// catalog is read: the app joins this load (loadEngine) when it is ready to show progress.
import { startEngineLoad } from "./loader.js";

startEngineLoad();
