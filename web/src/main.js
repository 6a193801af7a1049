// A minimal page: the sentence's tokens and head 0's attention weights, straight from the engine.
import { createEngine } from '../../dist/engine/engine.js';

const status = document.getElementById('status');
const input = document.getElementById('sentence');
const tokenList = document.getElementById('tokens');
const table = document.getElementById('weights');

function render(engine) {
  let trace;
  try {
    trace = engine.run({ text: input.value, dModel: 8, heads: 2 }, { steps: ['weights'] });
  } catch (error) {
    status.textContent = error.message;
    return;
  }
  status.textContent = `${trace.nQuery} tokens, ${trace.heads} heads, ${trace.parameterCount} parameters`;
  tokenList.replaceChildren(
    ...trace.tokens.map((token) => Object.assign(document.createElement('li'), { textContent: token })),
  );
  const weights = trace.step('weights', 0);
  const header = document.createElement('tr');
  header.append(
    document.createElement('th'),
    ...weights.colLabels.map((label) => Object.assign(document.createElement('th'), { textContent: label })),
  );
  const rows = weights.rowLabels.map((label, i) => {
    const row = document.createElement('tr');
    row.append(Object.assign(document.createElement('th'), { textContent: label }));
    for (let j = 0; j < weights.cols; j++) {
      const cell = document.createElement('td');
      cell.textContent = weights.data[i * weights.cols + j].toFixed(3);
      row.append(cell);
    }
    return row;
  });
  table.replaceChildren(header, ...rows);
}

const engine = await createEngine();
input.addEventListener('input', () => render(engine));
render(engine);
