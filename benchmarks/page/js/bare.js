const { loadPyodide } = await import("./pyodide/pyodide.mjs");
await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
document.body.dataset.state = "ready";
