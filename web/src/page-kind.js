// What kind of page the bundle runs in. single.js (dist/attention-explorer.html) sets
// singleFile before main.js starts: that file has no embed.html or playground.html beside it
// to point at.
export const pageKind = { singleFile: false };

/** `html` on a served page; nothing in the single file (a link to a page that is not there). */
export const servedOnly = (html) => (pageKind.singleFile ? '' : html);
