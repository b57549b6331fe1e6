// The engine's table settings as the page receives them (bridge.table_settings()), for modules that read them:
// asked of the Python engine itself, so these tests follow it.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTableSettings } from "../../web/js/base/rule-numbers.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PYTHON = process.env.PYTHON ?? "python3";

/** The engine's answer (JSON text) to `call`, a bridge function's name. */
export function engineAnswer(call) {
  const script = `from ewar import bridge; print(bridge.${call}())`;
  return execFileSync(PYTHON, ["-c", script], { cwd: ROOT, encoding: "utf8" });
}

/** Gives the page's modules the engine's table settings, as main.js does once the engine has loaded. */
export function useEngineSettings() {
  const json = engineAnswer("table_settings");
  setTableSettings(json);
  return JSON.parse(json);
}
