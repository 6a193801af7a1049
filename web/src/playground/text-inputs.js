// "Your text"'s inputs: the source and level selects, typing and pasting in the box, a .txt
// file, and "Train on this text". Each sets the page's state (the link keeps a short text) and
// `held` (own-text.js: a file's or a long paste's bytes), refusing what the engine would refuse
// before reading or sending it. `changed()`: the text changed, its trained summary is stale.
//
//   wireTextInputs(root, page, held, { showSource(), changed() }) → nothing
import { MAX_URL_TEXT } from './texts.js';
import { looksLikeText, PREFIX_BYTES, SHOWN_BYTES, typedTextFault, utf8Length } from './text-checks.js';

const $ = (root, role) => root.querySelector(`[data-role="${role}"]`);

export function wireTextInputs(root, page, held, { showSource, changed }) {
  const box = $(root, 'text');
  /** The learner's own text in the state: the box's, kept in the link only when short. */
  const ownText = () => page.setState({ source: 'own', text: box.value.length <= MAX_URL_TEXT ? box.value : '' });

  $(root, 'source').addEventListener('change', (e) => {
    held.file = null;
    page.setState({ source: e.target.value });
    showSource();
    changed();
  });
  $(root, 'level').addEventListener('change', (e) => {
    page.setState({ level: e.target.value });
    changed();
  });
  // A paste is weighed before it reaches the box: past the limit it is refused, unpasted; past
  // SHOWN_BYTES it is kept aside as bytes, as a long file is (the box would freeze the page).
  box.addEventListener('paste', (e) => {
    const pasted = e.clipboardData?.getData('text/plain');
    if (!pasted || pasted.length <= SHOWN_BYTES / 3) return;
    const most = page.limits?.maxTextBytes ?? Infinity;
    const bytes = utf8Length(pasted, most);
    if (bytes <= SHOWN_BYTES) return;
    e.preventDefault();
    if (bytes > most) {
      page.fail({
        kind: 'textRefused',
        args: ['pasteTooLarge', [(utf8Length(pasted) / 1e6).toFixed(1), most / 2 ** 20, most]],
      });
      return;
    }
    const fault = typedTextFault(pasted);
    if (fault) {
      page.fail(fault);
      return;
    }
    held.linkLostText = false;
    const sample = pasted.slice(0, 20000);
    held.file = { name: '', bytes: new TextEncoder().encode(pasted), shown: false, pasted: true, sample };
    box.value = '';
    page.fail(null);
    page.setState({ source: 'own', text: '' });
    changed();
  });
  box.addEventListener('input', () => {
    held.file = null;
    held.linkLostText = false;
    ownText(); // the link keeps a short text (state.js); a longer one stays here
    changed();
  });
  $(root, 'train-text').addEventListener('click', () => page.train());
  $(root, 'open-text').addEventListener('change', async (e) => {
    const picked = e.target.files[0];
    if (!picked) return;
    e.target.value = '';
    held.linkLostText = false;
    const { limits } = page;
    // A file past the limit is refused by its size, unread (a 200 MB file never reaches memory).
    if (limits && picked.size > limits.maxTextBytes) {
      page.fail({
        kind: 'fileTooLarge',
        args: [picked.name, (picked.size / 1e6).toFixed(1), limits.maxTextBytes / 2 ** 20, limits.maxTextBytes],
      });
      return;
    }
    try {
      // A short file whose start reads as text is shown; any other is sent as it is and the
      // engine (in the worker) names what is wrong, by byte offset.
      const prefix = new Uint8Array(await picked.slice(0, PREFIX_BYTES).arrayBuffer());
      const shown = picked.size <= SHOWN_BYTES && looksLikeText(prefix);
      const bytes = new Uint8Array(await picked.arrayBuffer());
      const sample = new TextDecoder().decode(prefix, { stream: true }).slice(0, 20000);
      held.file = { name: picked.name, bytes, shown, pasted: false, sample };
      box.value = shown ? new TextDecoder().decode(bytes) : '';
      ownText();
      page.train();
    } catch (error) {
      page.fail({ kind: 'file', message: error.message });
    }
  });
}
