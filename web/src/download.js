// The browser's download of something the page made (a figure, a table, a model file, a .zip):
// a blob: URL, no network, so the single offline file downloads too. Every download button uses
// it: the explorer's exports, "Download the model" and "Export for transformers".
//   download(name, content, type)   content: a string, bytes or a Blob (then `type` is its own)

/** Downloads `content` as the file `name` of MIME type `type`. */
export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  // In the document while clicked: older Firefox downloads only from an attached anchor.
  const a = Object.assign(document.createElement('a'), { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
