// Head roles measured on the page for a model without a sidecar (a GPT-2 checkpoint:
// models/service.js modelRolesStart … modelRolesResult), in the shape roles.js gives a sidecar's,
// so that the grid draws both the same way. Its own module: roles.js carries the bundle's
// sidecars (a virtual module that node cannot import), this is read by tests in node too.
/**
 * Roles measured on the page (service.js modelRolesStart … modelRolesResult: a model without a
 * sidecar, a GPT-2 checkpoint) as storedRoles gives a sidecar's: the grid draws both the same
 * way. A score that is not finite (none from a measurement that finished) is left out, so the
 * grid never shows NaN×.
 */
export function measuredRoles(result) {
  const positional = result.positional ?? [];
  return new Map(
    result.heads.map((h) => {
      const scores = Object.fromEntries(
        Object.entries(h.scores).filter(([, s]) => [s.score, s.chance, s.ratio].every(Number.isFinite)),
      );
      const roles = h.roles.filter((r) => Object.hasOwn(scores, r));
      return [`${h.layer}:${h.head}`, { ...h, roles, scores, positional }];
    }),
  );
}
