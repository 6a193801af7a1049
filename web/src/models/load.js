// The bytes of a shipped model: inside the single offline file they are bundled (base64, see
// build-scripts/bundle.mjs), elsewhere they are files of the site beside the script
// (dist/site/models/), fetched on first use only.
import bundled from 'virtual:model-files';

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

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
