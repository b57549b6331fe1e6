// The page's one script: the build bundles this file and everything it imports into dist/js/bundle.js
// (tools/builder/bundle.py). The engine's load starts first, before the app's own modules run (engine/start.js).
import "../engine/start.js";
import "./main.js";
