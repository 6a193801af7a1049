// The playground's markup. Static text only: every label is filled from i18n.js by data-i18n,
// user data never goes through innerHTML. Elements are found by data-role.

import { pageLinks } from '../page-kind.js';
import { SEED } from '../url-fields.js';
import { KNOB_CONTROLS } from './state.js';
const select = (role) => `<select data-role="${role}"></select>`;
const check = (role) =>
  `<label class="check"><input type="checkbox" data-role="${role}" /> <span data-i18n="${role}"></span></label>`;
const field = (role, control) => `<label><span data-i18n="${role}"></span> ${control}</label>`;
const seedBox = (role) => `<input data-role="${role}" type="number" min="${SEED.min}" max="${SEED.max}" step="1" />`;
/** A knob's control (state.js KNOB_CONTROLS), its data-role and label key its field's name. */
const knobControl = ({ field: role, control }) =>
  control === 'check' ? check(role) : field(role, control === 'seed' ? seedBox(role) : select(role));

export const MARKUP = `
<header class="top" data-chrome="header">
  <div>
    <h1 data-i18n="title"></h1>
    <p class="tagline" data-i18n="tagline"></p>
  </div>
  <div class="top-actions">
    <a data-role="explorer-link" href="${pageLinks().explorer}" data-i18n="explorerLink"></a>
    <button type="button" data-role="copy-link" data-i18n="copyLink"></button>
    <div class="language" role="group" aria-label="Language / 语言">
      <button type="button" data-lang="zh" aria-pressed="false">中文</button>
      <button type="button" data-lang="en" aria-pressed="false">English</button>
    </div>
  </div>
</header>
<p class="notice" data-role="notice" role="status" hidden></p>
<div class="pg-grid">
  <section class="panel pg-setup" data-chrome="controls" aria-labelledby="pg-setup-title">
    <h2 id="pg-setup-title" data-i18n="setup"></h2>
    <div class="control-grid">
      ${field('task', select('task'))}
      ${KNOB_CONTROLS.map(knobControl).join('\n      ')}
    </div>
    <p class="hint" data-role="task-help"></p>
    <button type="button" data-role="preset" data-i18n="preset"></button>
  </section>
  <section class="panel pg-text" data-role="text-panel" data-chrome="controls" hidden aria-labelledby="pg-text-title">
    <h2 id="pg-text-title" data-i18n="textTitle"></h2>
    <div class="control-grid">
      ${field('textSource', select('source'))}
      ${field('level', select('level'))}
    </div>
    <label class="pg-text-label"><span data-i18n="textLabel"></span>
      <textarea data-role="text" rows="6" spellcheck="false" data-i18n-placeholder="textPlaceholder"></textarea>
    </label>
    <p class="hint" data-role="proposal"></p>
    <div class="transport">
      <button type="button" data-role="train-text" data-i18n="trainText"></button>
      <label class="pg-file"><input type="file" class="visually-hidden" data-role="open-text" accept=".txt,text/plain" /><span data-i18n="openText"></span></label>
    </div>
    <progress data-role="text-progress" max="1" value="0" hidden></progress>
    <p class="pg-status" data-role="text-building" aria-live="polite"></p>
    <p class="pg-status" data-role="text-summary"></p>
    <p class="pg-status" data-role="text-split"></p>
    <p class="hint" data-role="text-url-note"></p>
    <p class="hint" data-role="text-limits"></p>
  </section>
  <section class="panel pg-train" aria-labelledby="pg-train-title">
    <h2 id="pg-train-title" data-i18n="training"></h2>
    <div class="transport">
      <!-- Disabled until the worker has a model (tests wait for that). -->
      <button type="button" data-role="play" aria-keyshortcuts="Space" disabled></button>
      <button type="button" data-role="step" data-i18n="step" aria-keyshortcuts="S" disabled></button>
      <button type="button" data-role="reset" data-i18n="reset"></button>
    </div>
    <p class="pg-status" data-role="status"></p>
    <p class="pg-status"><span data-role="held-out"></span></p>
    <p class="pg-status pg-memorising" data-role="memorising" role="status" hidden></p>
    <p class="message" data-role="error" role="alert" hidden></p>
  </section>
  <section class="panel pg-curves" data-chrome="curves" aria-labelledby="pg-curves-title">
    <h2 id="pg-curves-title" data-i18n="curves"></h2>
    <div class="pg-charts">
      <svg data-role="loss-chart" class="pg-chart" role="img"></svg>
      <svg data-role="accuracy-chart" class="pg-chart" role="img"></svg>
    </div>
    <p class="hint" data-role="curves-note" hidden></p>
    <p class="pg-reached" data-role="reached" hidden>
      <span data-role="reached-text"></span>
      <button type="button" data-role="stop" data-i18n="stopHere" hidden></button>
    </p>
  </section>
  <section class="panel pg-heatmaps" data-chrome="heatmaps" aria-labelledby="pg-heatmaps-title">
    <h2 id="pg-heatmaps-title" data-i18n="heatmaps"></h2>
    <p class="hint" data-i18n="heatmapsHelp"></p>
    <label class="pg-scrub"><span data-i18n="snapshot"></span>
      <input type="range" data-role="scrub" min="0" max="0" value="0" step="1" />
      <output data-role="scrub-label"></output>
    </label>
    <div class="pg-pager" data-role="heatmap-pager" hidden>
      <p class="hint" data-role="heatmap-paged"></p>
      <label><span data-i18n="pagerLayer"></span> <select data-role="heatmap-layer"></select></label>
      <button type="button" data-role="heatmap-prev" data-i18n="previousMaps"></button>
      <output data-role="heatmap-page" aria-live="polite"></output>
      <button type="button" data-role="heatmap-next" data-i18n="nextMaps"></button>
    </div>
    <p class="pg-sequence" data-role="sequence"></p>
    <div data-role="heatmap-grid" class="pg-heatmap-grid"></div>
  </section>
  <section class="panel pg-heads" data-role="heads-panel" hidden aria-labelledby="pg-heads-title">
    <h2 id="pg-heads-title" data-i18n="headScores"></h2>
    <p class="hint" data-i18n="headScoresHelp"></p>
    <div class="pg-charts">
      <svg data-role="induction-chart" class="pg-chart" role="img"></svg>
      <svg data-role="previous-chart" class="pg-chart" role="img"></svg>
    </div>
  </section>
  <section class="panel pg-sample" data-role="sample-panel" hidden aria-labelledby="pg-sample-title">
    <h2 id="pg-sample-title" data-i18n="sampleTitle"></h2>
    <p class="hint" data-i18n="sampleHelp"></p>
    <p class="pg-status" data-role="sample-step"></p>
    <p class="pg-sample-text" data-role="sample" aria-live="polite"></p>
  </section>
  <section class="panel pg-try" data-role="try-panel" data-chrome="try" aria-labelledby="pg-try-title">
    <h2 id="pg-try-title" data-i18n="tryTitle"></h2>
    <form data-role="try-form" class="pg-try-row">
      <label><span data-i18n="example"></span> <input data-role="example" type="text" autocomplete="off" spellcheck="false" maxlength="200" /></label>
      <button type="submit" data-i18n="run"></button>
    </form>
    <p class="message" data-role="example-error" role="alert" hidden></p>
    <dl class="pg-answer" data-role="answer" hidden>
      <dt data-i18n="modelSays"></dt><dd data-role="answer-text"></dd>
      <dt data-i18n="expected"></dt><dd data-role="expected-text"></dd>
    </dl>
    <div data-role="answer-grid" class="pg-heatmap-grid"></div>
  </section>
  <section class="panel pg-experiment" data-chrome="controls" aria-labelledby="pg-experiment-title">
    <h2 id="pg-experiment-title" data-i18n="experiment"></h2>
    <p class="hint" data-i18n="experimentHelp"></p>
    <div class="transport">
      <label><span data-i18n="dkSetting"></span> <select data-role="dk-setting"></select></label>
      <label><span data-i18n="seed"></span> <input type="number" data-role="dk-seed" min="${SEED.min}" max="${SEED.max}" step="1" /></label>
      <button type="button" data-role="experiment"></button>
    </div>
    <p class="hint" data-role="dk-setting-help"></p>
    <div data-role="experiment-body">
      <div class="pg-charts">
        <svg data-role="dk-loss" class="pg-chart" role="img"></svg>
        <svg data-role="dk-entropy" class="pg-chart" role="img"></svg>
        <svg data-role="dk-gradient" class="pg-chart" role="img"></svg>
      </div>
      <p class="hint"><span data-role="dk-lines"></span> <span data-role="dk-bands"></span></p>
      <table class="pg-dk-table" data-role="dk-table">
        <caption data-i18n="dkTable"></caption>
        <thead></thead>
        <tbody></tbody>
      </table>
      <div class="pg-says" data-role="dk-says"></div>
    </div>
  </section>
  <section class="panel pg-model" data-chrome="controls" aria-labelledby="pg-model-title">
    <h2 id="pg-model-title" data-i18n="model"></h2>
    <div class="transport">
      <button type="button" data-role="download" data-i18n="download"></button>
      <label class="pg-file"><input type="file" class="visually-hidden" data-role="load" accept=".model,application/octet-stream" /><span data-i18n="load"></span></label>
      <button type="button" data-role="open-explorer" data-i18n="openExplorer"></button>
      <button type="button" data-role="export-hf"></button>
    </div>
    <p class="hint" data-role="export-hf-note" role="status" hidden></p>
  </section>
</div>`;
