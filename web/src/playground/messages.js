// The playground's two message lines: the notice (role=status: a loaded model, the link's
// ignored and repeated keys, "Link copied") and the failure (role=alert: what failed, with the
// engine's reason). Each keeps what to say, not its text, so that a new language rewrites it.
//   const lines = messageLines(root, () => strings(state.lang));
//   lines.notice((s) => s.linkCopied);  lines.fail({ kind: 'load', message });  lines.redraw();

/** The text of a failure { kind, message, args }: kind is a key of the strings' `failed` table
 * (the worker's request) or another string of theirs (handoffFailed, popupBlocked,
 * fileTooLarge), called with `args` when given, else with the message. */
export function failureText(s, { kind, message, args }) {
  if (Object.hasOwn(s.failed, kind)) return s.failed[kind](message);
  return typeof s[kind] === 'function' ? s[kind](...(args ?? [message])) : (s[kind] ?? s.failed.other(message));
}

export function messageLines(root, t) {
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  let noticeOf = null; // (strings) => text, or null
  let failure = null; // { kind, message }, or null
  const show = (node, text) => {
    node.hidden = !text;
    node.textContent = text;
  };
  const lines = {
    /** Shows `next` ((strings) => text; null: none) as the notice. */
    notice(next) {
      noticeOf = next;
      show($('notice'), noticeOf?.(t()) || '');
    },
    /** Shows failure `next` ({ kind, message }; null: none). */
    fail(next) {
      failure = next;
      show($('error'), failure ? failureText(t(), failure) : '');
    },
    get failure() {
      return failure;
    },
    /** Both lines again, in the page's language now. */
    redraw() {
      lines.notice(noticeOf);
      lines.fail(failure);
    },
  };
  return lines;
}
