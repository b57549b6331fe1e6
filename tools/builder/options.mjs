// The command lines of the build's Node scripts (snapshot.mjs, stdlib.mjs): string options, some required.
import { parseArgs } from "node:util";

/**
 * The `--name value` options of this process's command line, by name; throws when one that `required` lists
 * (an array, or a function of the values read) is missing.
 */
export function stringOptions(names, required) {
  const { values } = parseArgs({ options: Object.fromEntries(names.map((name) => [name, { type: "string" }])) });
  for (const name of typeof required === "function" ? required(values) : required) {
    if (!values[name]) throw new Error(`--${name} is required`);
  }
  return values;
}
