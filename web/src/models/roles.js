// The head roles stored with the shipped models (models/<name>.roles.json: each head's role,
// measured by the native tool on held-out text; docs/models.md, "Head roles"), put in the bundle
// by build-scripts/bundle.mjs. The keys of a role on the typed text come from the worker
// (service.js, the engine's roleKeys).
import text from 'virtual:model-roles';

const SIDECARS = JSON.parse(text);

/**
 * The stored roles of shipped model `key`: a Map "layer:head" → { roles (the names shown, best
 * first: none, one, or two within 10% of each other), positional (names whose position-matched
 * baseline is 1 by definition), scores: { [role]: { score, chance, ratio, matchedRatio? } } },
 * or null (a model without a sidecar, a file). A first-format sidecar (one `role`, no
 * position-matched figures) reads as roles [role].
 */
export function storedRoles(key) {
  const sidecar = Object.hasOwn(SIDECARS, key) ? SIDECARS[key] : null;
  if (!sidecar) return null;
  const positional = sidecar.positional ?? [];
  return new Map(
    sidecar.heads.map((h) => [
      `${h.layer}:${h.head}`,
      { ...h, roles: h.roles ?? (h.role ? [h.role] : []), positional },
    ]),
  );
}
