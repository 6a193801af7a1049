// The head roles stored with the shipped models (models/<name>.roles.json: each head's role,
// measured by the native tool on held-out text; docs/models.md, "Head roles"), put in the bundle
// by build-scripts/bundle.mjs. The keys of a role on the typed text come from the worker
// (service.js, the engine's roleKeys).
import text from 'virtual:model-roles';

const SIDECARS = JSON.parse(text);

/**
 * The stored roles of shipped model `key`: a Map "layer:head" → { role (a name or null),
 * scores: { [role]: { score, chance, ratio } } }, or null (a model without a sidecar, a file).
 */
export function storedRoles(key) {
  const sidecar = Object.hasOwn(SIDECARS, key) ? SIDECARS[key] : null;
  return sidecar && new Map(sidecar.heads.map((h) => [`${h.layer}:${h.head}`, h]));
}
