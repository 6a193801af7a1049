// What kind of page the bundle runs in. single.js (dist/attention-explorer.html) sets
// singleFile before main.js starts: that file has no embed.html beside it to point at.
export const pageKind = { singleFile: false };
