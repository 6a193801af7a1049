// The markup of one explorer. Static text only (no user data ever goes through innerHTML);
// every element is found by its data-role, so several explorers can live on one page.

import { pageLinks } from '../page-kind.js';
import { STEP_COUNT } from '../steps.js';
import { SEED } from '../url-fields.js';
import { VIEWS, VIEW_KEYS } from '../views/registry.js';

let instances = 0;

export function explorerMarkup() {
  const id = `ae${++instances}`;
  const tab = (view) =>
    `<button role="tab" type="button" id="${id}-tab-${view}" data-view="${view}" aria-controls="${id}-panel-${view}"></button>`;
  const panel = (view, inner) =>
    `<div role="tabpanel" id="${id}-panel-${view}" data-panel="${view}" aria-labelledby="${id}-tab-${view}" hidden>${inner}</div>`;
  return `
<svg class="defs" aria-hidden="true" width="0" height="0"><defs>
  <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <rect width="6" height="6" class="hatch-bg" /><line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
  </pattern>
</defs></svg>
<header class="top" data-chrome="header">
  <div>
    <h1 data-i18n="title"></h1>
    <p class="tagline" data-i18n="tagline"></p>
  </div>
  <div class="top-actions">
    <div class="share" data-chrome="share">
      <a data-role="playground-link" href="${pageLinks().playground}" data-i18n="playgroundLink"></a>
      <button type="button" data-role="copy-link" data-i18n="copyLink"></button>
      <button type="button" data-role="copy-embed" data-i18n="copyEmbed"></button>
    </div>
    <div class="language" role="group" aria-label="Language / 语言">
      <button type="button" data-lang="zh" aria-pressed="false">中文</button>
      <button type="button" data-lang="en" aria-pressed="false">English</button>
    </div>
  </div>
</header>
<section class="embed-choices panel" data-role="embed-choices" aria-labelledby="${id}-embed-title" hidden>
  <h2 id="${id}-embed-title" data-i18n="embedChoices"></h2>
  <p class="hint" data-i18n="embedChoicesNote"></p>
  <div class="embed-options" data-role="embed-options"></div>
  <button type="button" data-role="embed-close" data-i18n="embedClose"></button>
</section>
<p class="notice" data-role="notice" role="status" hidden></p>
<div class="explorer-grid">
  <section class="input panel" data-chrome="controls">
    <div class="model-picker">
      <label><span data-role="model-label"></span> <select data-role="model"></select></label>
      <input data-role="model-file" type="file" multiple accept=".model,.safetensors,.json,.txt,application/octet-stream" hidden />
      <input data-role="model-folder" type="file" webkitdirectory hidden />
      <p data-role="model-about" class="model-about" role="status"></p>
    </div>
    <label class="sentence-row"><span data-i18n="sentence"></span>
      <input data-role="sentence" type="text" autocomplete="off" spellcheck="false" />
    </label>
    <div class="input-options">
      <label><span data-i18n="presets"></span> <select data-role="preset"></select></label>
      <label><span data-i18n="tokenization"></span> <select data-role="tokenization"></select></label>
    </div>
    <ol data-role="tokens" class="chips" aria-live="polite"></ol>
    <label class="sentence-row"><span data-i18n="kvSentence"></span>
      <input data-role="kv" type="text" autocomplete="off" spellcheck="false" data-i18n-placeholder="kvPlaceholder" />
    </label>
    <ol data-role="kv-tokens" class="chips kv-chips" aria-live="polite"></ol>
    <p data-role="empty" class="empty" hidden data-i18n="emptyState"></p>
    <p data-role="message" class="message" role="alert" hidden></p>
  </section>
  <section class="controls panel" data-chrome="controls">
    <h2 data-i18n="controls"></h2>
    <div class="control-grid">
      <label><span data-i18n="dModel"></span> <select data-role="dModel"></select></label>
      <label><span data-i18n="heads"></span> <select data-role="heads"></select></label>
      <label><span data-i18n="seed"></span> <input data-role="seed" type="number" min="${SEED.min}" max="${SEED.max}" step="1" /></label>
      <label data-role="attention-control"><span data-i18n="attention"></span> <select data-role="attention" aria-describedby="linear-note"></select></label>
      <label><span data-i18n="mask"></span> <select data-role="mask"></select></label>
      <label data-role="window-control"><span data-i18n="window"></span> <input data-role="window" type="number" min="0" max="64" step="1" /></label>
      <label data-role="dilation-control"><span data-i18n="dilation"></span> <input data-role="dilation" type="number" step="1" /></label>
      <label data-role="global-control"><span data-i18n="globalTokens"></span> <input data-role="global" type="text" inputmode="numeric" autocomplete="off" spellcheck="false" aria-describedby="${id}-global-hint" /></label>
      <label data-role="block-control"><span data-i18n="block"></span> <input data-role="block" type="number" step="1" /></label>
      <label data-role="random-control"><span data-i18n="randomBlocks"></span> <input data-role="random" type="number" step="1" /></label>
      <label data-role="maskSeed-control"><span data-i18n="maskSeed"></span> <input data-role="maskSeed" type="number" step="1" /></label>
      <label data-role="maskCausal-control" class="check"><input data-role="maskCausal" type="checkbox" aria-describedby="${id}-causal-hint" /> <span data-i18n="maskCausal"></span></label>
      <label class="check"><input data-role="scale" type="checkbox" /> <span data-i18n="scale"></span></label>
      <label><span data-i18n="temperature"></span> <input data-role="temperature" type="number" step="any" /></label>
      <label class="check"><input data-role="positionalEncoding" type="checkbox" /> <span data-i18n="positionalEncoding"></span></label>
      <label><span data-i18n="init"></span> <select data-role="init"></select></label>
      <label class="check"><input data-role="tutorial" type="checkbox" /> <span data-i18n="tutorialMode"></span></label>
    </div>
    <p data-role="global-hint" id="${id}-global-hint" class="hint" data-i18n="globalHint" hidden></p>
    <p data-role="maskCausal-hint" id="${id}-causal-hint" class="hint" data-i18n="maskCausalHint" hidden></p>
    <p data-role="tutorial-note" class="hint" data-i18n="tutorialNote" hidden></p>
    <p data-role="linear-note" id="linear-note" class="hint" data-i18n="linearOff" hidden></p>
    <p data-role="summary" class="summary"></p>
    <p data-role="cost" class="summary"></p>
    <p data-role="engine-threads" class="summary"></p>
  </section>
  <section class="models panel" data-role="models" data-chrome="models" hidden>
    <p data-role="model-notice" class="notice model-notice" role="status" hidden></p>
    <div class="model-export">
      <button type="button" data-role="model-export"></button>
      <span class="hint" data-role="model-export-note" role="status"></span>
    </div>
    <h2 data-role="model-view-title"></h2>
    <p class="hint" data-role="model-view-hint"></p>
    <div class="model-roles" data-role="model-roles" hidden>
      <button type="button" data-role="model-roles-measure"></button>
      <progress data-role="model-roles-progress" max="1" value="0" hidden></progress>
      <button type="button" data-role="model-roles-stop" hidden></button>
      <p class="hint" data-role="model-roles-status" role="status"></p>
    </div>
    <div data-role="model-grid" class="model-grid"></div>
    <div class="model-columns">
      <div><h2 data-role="model-block-title"></h2><p class="hint" data-role="model-block-hint"></p><div data-role="model-block" class="model-block"></div></div>
      <div><h2 data-role="model-next-title"></h2><div data-role="model-next" class="model-next"></div></div>
    </div>
  </section>
  <section class="stepper panel" data-chrome="stepper">
    <div class="transport">
      <button type="button" class="previous">◀</button>
      <button type="button" class="play">▶</button>
      <button type="button" class="next">▶▶</button>
      <input class="scrubber" type="range" min="1" max="${STEP_COUNT}" step="1" />
      <span class="step-counter" aria-live="polite"></span>
    </div>
    <ol class="step-list"></ol>
  </section>
  <section class="stage-row" data-chrome="stage">
    <div class="stage panel">
      <p class="hint" data-role="stage-note" hidden></p>
      <svg data-role="stage" class="stage-svg" role="img" aria-labelledby="${id}-step-title"></svg>
      <p class="hint" data-i18n="arithmeticHint"></p>
      <div data-role="arithmetic" class="arithmetic" aria-live="polite" hidden></div>
    </div>
    <aside class="explain panel" aria-live="polite" data-chrome="explain">
      <h2 id="${id}-step-title" class="step-title"></h2>
      <div class="formula"></div>
      <div class="formula-context"></div>
      <p class="shapes"></p>
      <p class="step-text"></p>
      <p class="concept-note hint" hidden></p>
    </aside>
  </section>
  <section class="views panel" data-chrome="views">
    <div class="view-bar" data-chrome="viewbar">
      <div role="tablist" class="tabs" data-i18n-label="views">${VIEW_KEYS.map(tab).join('')}</div>
      <div class="view-actions">
        <label><span data-i18n="head"></span> <select data-role="head"></select></label>
        <div class="export" role="group" data-i18n-label="export">
          <button type="button" data-export="svg">SVG</button>
          <button type="button" data-export="png">PNG</button>
          <button type="button" data-export="csv">CSV</button>
          <button type="button" data-export="json">JSON</button>
        </div>
      </div>
    </div>
    ${Object.entries(VIEWS)
      .map(([view, { panel: inner }]) => panel(view, inner))
      .join('\n    ')}
    <p class="figure-caption" data-role="figure-caption" data-chrome="caption"><strong data-role="figure-caption-title"></strong> <span data-role="figure-caption-text"></span></p>
  </section>
  <details class="cost-panel panel" data-role="cost-panel" data-chrome="costs">
    <summary><h2 data-i18n="costTitle"></h2></summary>
    <p class="hint" data-role="cost-intro"></p>
    <div class="cost-actions">
      <button type="button" data-role="cost-measure" data-i18n="costMeasure"></button>
      <button type="button" data-role="cost-stop" data-i18n="costStop" disabled></button>
      <progress data-role="cost-progress" max="1" value="0" data-i18n-label="costProgress"></progress>
      <span data-role="cost-status" role="status"></span>
    </div>
    <div class="cost-figures">
      <svg data-role="cost-time" class="cost-chart" role="img" data-i18n-label="costTimeAxis"></svg>
      <svg data-role="cost-memory" class="cost-chart" role="img" data-i18n-label="costMemoryAxis"></svg>
    </div>
    <div class="cost-figures">
      <table data-role="cost-slopes" class="cost-table"></table>
      <div><h3 data-i18n="costTutorialTitle"></h3><table data-role="cost-tutorial" class="cost-table"></table></div>
    </div>
    <p class="hint" data-i18n="costSlopeNote"></p>
  </details>
</div>`;
}
