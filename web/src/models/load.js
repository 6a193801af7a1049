// The bytes of a shipped model: inside the single offline file they are bundled (base64, see
// build-scripts/bundle.mjs), elsewhere they are files of the site beside the script
// (dist/site/models/), fetched on first use only.
import bundled from 'virtual:model-files';

/** base64 → bytes, in a plain loop (Uint8Array.from with a callback is several times slower at 2 MB). */
function decode(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Whether this build has models/<key>.model: the site always, a single file if it carries it. */
export const hasShippedModel = (key) => !bundled || Object.hasOwn(bundled, key);

/** Uint8Array of models/<key>.model; rejects with a message that names the file. */
export async function shippedModelBytes(key) {
  if (bundled) {
    if (!Object.hasOwn(bundled, key)) throw new Error(`models/${key}.model is not in this file`);
    return decode(bundled[key]);
  }
  const url = new URL(`./models/${key}.model`, import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`models/${key}.model: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
