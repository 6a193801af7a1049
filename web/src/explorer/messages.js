// What the explorer says in words: the message under the sentence (too long, an engine
// error; a button may offer the fix) and the notice (what a copy left out, the text to copy
// by hand; also each message when the controls are hidden, as in an embed).
//
//   createMessages($, chrome) → { say(text, action), notice(text) }   (null text: hidden)
import { setText } from '../dom.js';

/** @param $ the explorer's elements by data-role; chrome: which parts are shown */
export function createMessages($, chrome) {
  /** A message under the sentence; `action` adds a button, e.g. { label, run } to truncate. */
  function say(text, action = null) {
    const message = $('message');
    message.hidden = !text;
    setText(message, text ?? '');
    if (text && action) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'message-action';
      button.textContent = action.label;
      button.addEventListener('click', action.run);
      message.append(' ', button);
    }
    if (chrome.controls === false && text) notice(text);
  }

  function notice(text) {
    $('notice').hidden = !text;
    setText($('notice'), text ?? '');
  }

  return { say, notice };
}
