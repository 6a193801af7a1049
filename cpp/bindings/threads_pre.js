// Linked into the threaded module only (--pre-js, cpp/bindings/CMakeLists.txt), inside its
// factory, where Module is the object module.js hands in. Emscripten's code names `Worker` and
// `navigator` as globals; these two declarations make it take the ones module.js gives instead
// (in node, worker_threads dressed as Web Workers: node_threads.js) and the page's otherwise.
// Another library's module may have set either global: onnxruntime-web's threaded build, run in
// node, sets globalThis.Worker to worker_threads' own Worker, on which the engine's thread
// script died ("self is not defined") and took the process with it.
var Worker = Module['Worker'] || globalThis.Worker;
var navigator = Module['navigator'] || globalThis.navigator;
