// The node engine's trace for what a page shows: its chips as tokens and its URL's model fields.

/** Runs `engine` (tests/node/support.mjs createEngine) with the page's tokens and URL state. */
export async function engineTraceFor(engine, page) {
  const tokens = await page.locator('[data-role=tokens] li').allTextContents();
  const params = new URL(page.url()).searchParams;
  const mask = params.get('mask') ?? 'none';
  return engine.run({
    tokens,
    dModel: Number(params.get('d') ?? 8),
    heads: Number(params.get('h') ?? 2),
    seed: Number(params.get('seed') ?? 42),
    mask: mask === 'window' ? { type: 'window', width: Number(params.get('w') ?? 1) } : mask,
    scale: params.get('scale') !== '0',
    temperature: Number(params.get('t') ?? 1),
    positionalEncoding: params.get('pe') !== '0',
    init: params.get('init') ?? 'scaled',
  });
}
