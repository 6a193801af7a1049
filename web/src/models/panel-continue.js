// The model panel's continue buttons (next.js draws them): one more token after the sentence,
// greedy or sampled, written into the store's sentence. Remembers what it appended, so that the
// prediction marks those pieces and a greedy loop stops greedy continue, until the learner types.
//
//   const continuer = createContinuer({ store, engine, notice })
//   continuer.run(greedy)       asks the worker (models/service.js modelGenerate) for one token
//   continuer.marks(state)      → { added: the pieces appended to state.sentence, loop: its
//                                 repeated tail after a greedy continue (next.js repeatedTail) or null }
import { repeatedTail } from './next.js';

/** @param o { store, engine (the RemoteEngine), notice(text): the panel's message line } */
export function createContinuer({ store, engine, notice }) {
  // The text continue last wrote, the pieces it appended (drawNext marks them), and whether the
  // last of them was greedy (a greedy loop stops greedy continue: drawNext).
  let continued = { text: null, added: [], greedy: false };
  let seed = 0; // each sampled continuation draws with the next seed: repeatable from a reload

  async function run(greedy) {
    const state = store.get();
    try {
      const { text } = await engine.ask('modelGenerate', {
        name: state.model,
        text: state.sentence,
        greedy,
        temperature: state.sampleTemperature,
        topK: greedy ? 0 : state.topK,
        seed: ++seed,
      });
      // The piece appended, after those of earlier continues of this same text.
      const piece = text.startsWith(state.sentence) ? text.slice(state.sentence.length) : null;
      const before = continued.text === state.sentence ? continued.added : [];
      continued = { text, added: piece === null ? [] : [...before, piece], greedy };
      store.set({ sentence: text });
    } catch (error) {
      notice(error.message);
    }
  }

  function marks(state) {
    // What continue appended, while the sentence is still the one it wrote (typing ends it).
    if (state.sentence !== continued.text) continued = { text: null, added: [], greedy: false };
    return { added: continued.added, loop: continued.greedy ? repeatedTail(continued.added) : null };
  }

  return { run, marks };
}
