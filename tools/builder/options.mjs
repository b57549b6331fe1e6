// The command lines of the build's Node scripts (snapshot.mjs, stdlib.mjs): string options in, an exit status out.
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

/** Runs a script's main() and ends the process: 0, or 1 with the error on stderr under the script's name. */
export async function runToExit(name, main) {
  try {
    await main();
    process.exit(0); // Pyodide keeps handles open; a build step must end.
  } catch (error) {
    process.stderr.write(`${name}: ${error.stack ?? error}\n`);
    process.exit(1);
  }
}
