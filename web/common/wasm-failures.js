// Pyodide instantiates its WebAssembly itself, and when that fails (a download cut short, a damaged file) it only
// logs a warning: loadPyodide then never settles, and a page would wait on its loading screen forever. Pyodide's
// instantiation goes through WebAssembly.instantiateStreaming, looked up when called; watching that one function
// turns such a failure into a rejection its caller can report.

/** A WebAssembly instantiation that failed while Pyodide loaded; `cause` is the browser's error. */
export class WasmInstantiationError extends Error {
  constructor(cause) {
    super(`the WebAssembly runtime could not be instantiated: ${cause?.message ?? cause}`, { cause });
    this.name = "WasmInstantiationError";
  }
}

const listeners = new Set();
let watching = false;

/** Wraps WebAssembly.instantiateStreaming once: the same call, the same result, and every failure told. */
function watch() {
  if (watching || typeof WebAssembly?.instantiateStreaming !== "function") return;
  watching = true;
  const instantiate = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function instantiateStreaming(source, imports) {
    const result = instantiate.call(WebAssembly, source, imports);
    result.catch((error) => {
      for (const listener of listeners) listener(error);
    });
    return result;
  };
}

/**
 * Resolves as `loading` does, or rejects with a WasmInstantiationError if any WebAssembly instantiation fails while
 * it is under way (in a page or a worker nothing else instantiates WebAssembly while Pyodide loads).
 */
export function failingWithWasm(loading) {
  watch();
  let listener;
  const failed = new Promise((_, reject) => {
    listener = (error) => reject(new WasmInstantiationError(error));
    listeners.add(listener);
  });
  return Promise.race([loading, failed]).finally(() => listeners.delete(listener));
}
