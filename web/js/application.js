// Start-up: waits for the page, then lets the shell join catalog, engine, input, game and actuator.
import { startOffline } from "./offline.js";
import { boot } from "./shell.js";

boot();
startOffline();
