// One direction: no import goes up a layer or sideways, no import cycle, in the
// page, the engine's JS, the C++ (#include) and between the tests and the benchmarks
// (build-scripts/check-layers.mjs holds the table; docs/architecture.md draws it). The checker
// is run on this repository, then on small repositories with one planted mistake each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkLayers, importGraph } from '../../build-scripts/check-layers.mjs';
import { root } from './support.mjs';

/** A repository in a temporary folder holding `files` ({ path: text }); removed after `run`. */
function withRepository(files, run) {
  const dir = mkdtempSync(path.join(tmpdir(), 'layers-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    return run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('this repository: no upward import, no cycle, no import of a missing file', () => {
  assert.deepEqual(checkLayers(root), []);
});

test('the checker reads the imports it judges: multi-line JS imports, C++ includes, dist/engine', () => {
  const { edges } = importGraph(root);
  const targets = (file) => edges.get(file).map((e) => e.target);
  assert.ok(targets('web/src/controls.js').includes('web/src/state.js'), '`} from` closing a multi-line import');
  assert.ok(targets('cpp/src/trace.cpp').includes('cpp/src/gemm.hpp'), 'an #include beside the file');
  assert.ok(targets('cpp/src/trace.cpp').includes('cpp/include/attention/trace.hpp'), 'an #include from cpp/include');
  assert.ok(targets('bin/attention-explorer.mjs').includes('dist/engine/engine.js'), 'the built engine');
  assert.ok(targets('bench/run.mjs').includes('tests/node/support.mjs'), 'benchmarks may use test support');
});

test('a planted import cycle is reported with each file:line on it', () => {
  const files = {
    'web/src/a.js': "import { b } from './b.js';\nexport const a = 1;\n",
    'web/src/b.js': "// the other half\nimport { a } from './a.js';\nexport const b = a;\n",
  };
  withRepository(files, (dir) => {
    assert.deepEqual(checkLayers(dir), ['web/src/a.js:1 → web/src/b.js:2 → web/src/a.js: import cycle']);
  });
});

test('a planted upward import is reported with the rule it breaks', () => {
  const files = {
    'web/src/views/links.js': "export {\n  stepRequest,\n} from '../explorer/requests.js';\n",
    'web/src/explorer/requests.js': 'export const stepRequest = () => ({});\n',
  };
  withRepository(files, (dir) => {
    assert.deepEqual(checkLayers(dir), [
      'web/src/views/links.js:3 → web/src/explorer/requests.js: web/views may not import web/explorer ' +
        '(web/views may import web/shared, web/leaves)',
    ]);
  });
});

test('the state must not load the views, nor the server the state, nor a test a benchmark', () => {
  const files = {
    'web/src/state.js': "import { VIEW_KEYS } from './views/registry.js';\n",
    'web/src/views/registry.js': 'export const VIEW_KEYS = [];\n',
    'build-scripts/serve.mjs': "import { MAX } from '../web/src/state.js';\n",
    'tests/node/gemm.test.mjs': "import { seededValues } from '../../bench/timing.mjs';\n",
    'bench/timing.mjs': 'export const seededValues = 1;\n',
    'bench/run.mjs': "import '../tests/node/gemm.test.mjs';\n",
  };
  withRepository(files, (dir) => {
    assert.deepEqual(
      checkLayers(dir).map((p) => p.split(': ')[1]),
      [
        'build-scripts may not import web/shared (build-scripts may import web/leaves, engine)',
        'bench may not import test files (bench may import tests, any product layer, emscripten)',
        'test files may not import bench (test files may import tests, any product layer)',
        'web/shared may not import web/views (web/shared may import web/leaves, engine)',
      ].sort((a, b) => (a < b ? -1 : 1)),
    );
  });
});

test('C++: a source including the bindings, a public header including a source header', () => {
  const files = {
    'cpp/src/trace.cpp': '#include "attention/trace.hpp"\n#include "../bindings/request.hpp"\n',
    'cpp/src/format.hpp': '#pragma once\n',
    'cpp/include/attention/trace.hpp': '#pragma once\n#include <vector>\n#include "format.hpp"\n',
    'cpp/bindings/request.hpp': '#pragma once\n#include "attention/trace.hpp"\n',
  };
  withRepository(files, (dir) => {
    assert.deepEqual(checkLayers(dir), [
      'cpp/include/attention/trace.hpp:3 → cpp/src/format.hpp: cpp/include may not import cpp/src (cpp/include may import nothing outside itself)',
      'cpp/src/trace.cpp:2 → cpp/bindings/request.hpp: cpp/src may not import cpp/bindings (cpp/src may import cpp/include)',
    ]);
  });
});

test('C++: Emscripten headers in cpp/bindings only', () => {
  const files = {
    'cpp/bindings/embind.cpp': '#include <emscripten/bind.h>\n',
    'cpp/src/trace.cpp': '#include <vector>\n#include <emscripten/val.h>\n',
  };
  withRepository(files, (dir) => {
    assert.deepEqual(checkLayers(dir), [
      'cpp/src/trace.cpp:2 → emscripten: cpp/src may not import emscripten (cpp/src may import cpp/include)',
    ]);
  });
});

test('an import of a file that is not there is reported (a moved module)', () => {
  withRepository({ 'web/src/main.js': "import { x } from './gone.js';\n" }, (dir) => {
    assert.deepEqual(checkLayers(dir), ['web/src/main.js:1 → ./gone.js: no such file']);
  });
});

test('any page module loads first: the explorer template no longer needs the state loaded before it', () => {
  // Before, state.js and views/registry.js imported each other: loading the template first threw
  // "Cannot access 'VIEW_KEYS' before initialization".
  const template = JSON.stringify('./web/src/explorer/template.js');
  const script = `const m = await import(${template}); console.log(typeof m.explorerMarkup);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.equal(out.trim(), 'function');
});

test('both pages’ state (and the link helper) load no drawing code: neither the views, the steps’ drawings nor d3', () => {
  const { edges } = importGraph(root);
  for (const start of ['web/src/state.js', 'web/src/playground/state.js', 'web/src/url-fields.js']) {
    const closure = new Set();
    const visit = (file) => {
      if (closure.has(file)) return;
      closure.add(file);
      for (const { target } of edges.get(file) ?? []) visit(target);
    };
    visit(start);
    const drawing = [...closure].filter(
      (file) =>
        /^web\/src\/(views|explorer|models)\/|\/steps\.js$|\/scales\.js$|\/curves\.js$|\/heatmaps\.js$/.test(file) ||
        /from ['"]d3/.test(readFileSync(path.join(root, file), 'utf8')),
    );
    assert.deepEqual(drawing, [], `${start} loads ${[...closure].join(', ')}`);
  }
});
