// The machine and tool versions a benchmark ran on, for docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './contenders.mjs';

export function machine() {
  const version = (cmd, args) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } })
        .split('\n')[0]
        .trim();
    } catch {
      return 'unknown';
    }
  };
  const pkg = (name) => {
    try {
      return JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return '?';
    }
  };
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    emscripten: version('em++', ['--version']),
    gxx: version('g++', ['--version']),
    ort: pkg('onnxruntime-web'),
    tfjs: pkg('@tensorflow/tfjs-backend-wasm'),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    loadBefore: os.loadavg()[0].toFixed(2),
  };
}
