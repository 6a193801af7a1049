// Which engine a page's worker runs, for the playground's training worker and the
// explorer's engine worker alike: where the page is cross-origin isolated (SharedArrayBuffer
// exists), the threaded build, dist/engine-mt, which the worker imports from engine-mt/ beside the
// page (its pthreads import it again by URL, so it is never bundled); elsewhere the
// single-threaded one. And how either page says so, in both languages.
import { pageKind } from './page-kind.js';

export const ENGINE_MT = 'engine-mt/engine.js';

/** The threaded engine's module, beside the page. */
export const engineMtUrl = () => new URL(ENGINE_MT, location.href).href;

/** Why the page runs one thread, or null where it may run more: 'single-file' | 'not-isolated'. */
export function singleThreadReason() {
  if (pageKind.singleFile) return 'single-file';
  if (globalThis.crossOriginIsolated !== true || typeof SharedArrayBuffer !== 'function') return 'not-isolated';
  return null;
}

/** Why one thread: singleThreadReason's, 'failed' (the threaded engine did not start) or
 * 'component' (the web component, whose host page may have no engine-mt/ beside it). */
const ONE_THREAD = {
  en: {
    'not-isolated': 'this page is not cross-origin isolated',
    'single-file': 'the single file cannot share memory',
    failed: 'the threaded engine did not start',
    component: 'the web component runs the single-threaded engine',
  },
  zh: {
    'not-isolated': '此页面未跨源隔离',
    'single-file': '单文件版无法共享内存',
    failed: '多线程引擎未能启动',
    component: '网页组件使用单线程引擎',
  },
};

/** The engine's threads as a page says them: how many, or (reason not null) why one. */
export const THREADS_TEXT = {
  en: (n, reason) =>
    reason === null ? `${n} ${n === 1 ? 'thread' : 'threads'} (shared memory)` : `1 thread — ${ONE_THREAD.en[reason]}`,
  zh: (n, reason) => (reason === null ? `${n} 个线程（共享内存）` : `1 个线程——${ONE_THREAD.zh[reason]}`),
};
