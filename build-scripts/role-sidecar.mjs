// A shipped model's head-role sidecar (models/<name>.roles.json, written by the native tool
// head_roles; docs/models.md, "Head roles") checked before it goes into the page's bundle.
// The page trusts what the bundle carries: a forged sidecar with a head too many, a NaN score
// (Python's json writes one) or a role the page has no words for ("<b>x</b>", "constructor")
// would show "NaN× chance", a function's text or nothing under a head, or throw while the model
// panel draws. Every fault is refused with the file and the key path at fault.
//
//   const page = readRoleSidecar(text, { layers: 4, heads: 4 }, 'models/tang.roles.json');
//   // → { format, roleRatio, positional, heads: [{ layer, head, role, roles?,
//   //      scores: { [role]: { score, chance, ratio, matchedRatio? } } }] }
// Format 2 adds per head `roles` (two roles within 10% are both named), per score the
// position-matched ratio, and the list of roles that are a distance by definition (`positional`).

// Every role the page names (web/src/models/i18n.js `role`): the engine's kRoles
// (cpp/src/train/head_roles.cpp), read from the generated catalog.
import { ROLE_NAMES } from '../cpp/bindings/js/catalog.js';

const show = (value) => {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
};

/** The layers and heads of a model file, from its configuration (docs/model-format.md). */
export function modelShape(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(20, true);
  const config = JSON.parse(new TextDecoder().decode(bytes.subarray(24, 24 + length)));
  return { layers: config.layers, heads: config.heads };
}

/**
 * The page's part of sidecar `text` (rounded to 4 decimals) for a model of `shape` { layers,
 * heads }; throws an Error naming `file` and the key at fault.
 */
export function readRoleSidecar(text, { layers, heads }, file) {
  const fail = (key, value, rule) => {
    throw new Error(`${file}: ${key} (${show(value)}) ${rule}`);
  };
  let sidecar;
  try {
    sidecar = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON (NaN and Infinity are not JSON numbers): ${error.message}`);
  }
  if (!sidecar || typeof sidecar !== 'object' || Array.isArray(sidecar))
    fail('the sidecar', sidecar, 'must be an object');
  const number = (key, value, min = 0) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      fail(key, value, `must be a finite number of at least ${min}`);
    }
    return Math.round(value * 1e4) / 1e4;
  };
  const roleRatio = number('roleRatio', sidecar.roleRatio);
  if (!Array.isArray(sidecar.heads)) fail('heads', sidecar.heads, 'must be an array');
  if (sidecar.heads.length !== layers * heads) {
    fail(
      'heads',
      sidecar.heads,
      `must have one entry per head of the model: ${layers} layers × ${heads} heads = ${layers * heads}, not ${sidecar.heads.length}`,
    );
  }
  const seen = new Set();
  const out = sidecar.heads.map((entry, i) => {
    const at = `heads[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) fail(at, entry, 'must be an object');
    const { layer, head, role, roles, scores } = entry;
    if (!Number.isInteger(layer) || layer < 0 || layer >= layers)
      fail(`${at}.layer`, layer, `must be an integer from 0 to ${layers - 1}`);
    if (!Number.isInteger(head) || head < 0 || head >= heads)
      fail(`${at}.head`, head, `must be an integer from 0 to ${heads - 1}`);
    if (seen.has(`${layer}:${head}`)) fail(at, `layer ${layer}, head ${head}`, 'appears twice');
    seen.add(`${layer}:${head}`);
    if (role !== null && !ROLE_NAMES.includes(role))
      fail(`${at}.role`, role, `must be null or one of ${ROLE_NAMES.join(', ')}`);
    if (!scores || typeof scores !== 'object' || Array.isArray(scores))
      fail(`${at}.scores`, scores, 'must be an object');
    const kept = {};
    for (const [name, s] of Object.entries(scores)) {
      if (!ROLE_NAMES.includes(name))
        fail(`${at}.scores`, name, `has a role that is not one of ${ROLE_NAMES.join(', ')}`);
      if (!s || typeof s !== 'object') fail(`${at}.scores.${name}`, s, 'must be an object');
      kept[name] = {
        score: number(`${at}.scores.${name}.score`, s.score),
        chance: number(`${at}.scores.${name}.chance`, s.chance),
        ratio: number(`${at}.scores.${name}.ratio`, s.ratio),
        ...(s.matchedRatio === undefined
          ? {}
          : { matchedRatio: number(`${at}.scores.${name}.matchedRatio`, s.matchedRatio) }),
      };
    }
    // The page shows the role's own score under the head.
    if (role !== null && !kept[role]) fail(`${at}.scores.${role}`, undefined, 'must be there: the head has this role');
    if (roles !== undefined) {
      if (!Array.isArray(roles) || roles.length > ROLE_NAMES.length)
        fail(`${at}.roles`, roles, 'must be an array of roles');
      roles.forEach((r, k) => {
        if (!ROLE_NAMES.includes(r)) fail(`${at}.roles[${k}]`, r, `must be one of ${ROLE_NAMES.join(', ')}`);
        if (!kept[r]) fail(`${at}.scores.${r}`, undefined, 'must be there: the head has this role');
      });
    }
    return { layer, head, role, ...(roles === undefined ? {} : { roles: [...roles] }), scores: kept };
  });
  const format = sidecar.format ?? 1;
  if (format !== 1 && format !== 2) fail('format', format, 'must be 1 or 2');
  const listed = sidecar.roles ?? [];
  if (!Array.isArray(listed)) fail('roles', listed, 'must be an array');
  const positional = listed
    .filter((r) => r && r.positional === true)
    .map((r, k) => {
      if (!ROLE_NAMES.includes(r.name)) fail(`roles[${k}].name`, r.name, `must be one of ${ROLE_NAMES.join(', ')}`);
      return r.name;
    });
  return { format, roleRatio, positional, heads: out };
}
