// tfjs-core's gradients for node: its node bundle (tf-core.node.js) registers none, and
// dist/register_all_gradients.js is ESM with extensionless imports that node cannot load.
// bench/build.sh bundles this file with esbuild into build/bench-train/tfjs-gradients.mjs;
// import it after tfjs-core (the registry is global, the bundle's own Tensor class must not
// replace the one tfjs-core registered first).
import '@tensorflow/tfjs-core/dist/register_all_gradients.js';
