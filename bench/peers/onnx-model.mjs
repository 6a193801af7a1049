// A minimal ONNX ModelProto writer (protobuf wire format by hand: no onnx package here),
// enough for the benchmark's two attention graphs. Field numbers from onnx/onnx.proto3.
const FLOAT = 1;
const INT64 = 7;

function varint(value) {
  const bytes = [];
  let v = BigInt.asUintN(64, BigInt(value));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    bytes.push(byte);
  } while (v);
  return bytes;
}

/** A message: [field, wire value] pairs; numbers are varints, strings/bytes/arrays are length-delimited. */
function message(fields) {
  const out = [];
  for (const [field, value] of fields) {
    if (value === undefined) continue;
    if (typeof value === 'number' || typeof value === 'bigint') {
      out.push(...varint(field << 3), ...varint(value));
    } else if (value instanceof Float32) {
      const b = new Uint8Array(new Float32Array([value.value]).buffer);
      out.push(...varint((field << 3) | 5), ...b);
    } else {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      out.push(...varint((field << 3) | 2), ...varint(bytes.length));
      for (let i = 0; i < bytes.length; i++) out.push(bytes[i]);
    }
  }
  return Uint8Array.from(out);
}

class Float32 {
  constructor(value) {
    this.value = value;
  }
}

function tensor(name, dims, data) {
  const raw = data instanceof Float32Array ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
  const fields = dims.map((d) => [1, d]);
  fields.push([2, data instanceof Float32Array ? FLOAT : INT64], [8, name]);
  if (raw) fields.push([9, raw]);
  else {
    const ints = new BigInt64Array(data.map(BigInt));
    fields.push([9, new Uint8Array(ints.buffer)]);
  }
  return message(fields);
}

function valueInfo(name, dims) {
  const shape = message(dims.map((d) => [1, message([[1, d]])]));
  const tensorType = message([
    [1, FLOAT],
    [2, shape],
  ]);
  return message([
    [1, name],
    [2, message([[1, tensorType]])],
  ]);
}

function attribute(name, value) {
  // AttributeProto: name 1, f 2, i 3, ints 8, type 20 (FLOAT 1, INT 2, INTS 7).
  if (Array.isArray(value)) return message([[1, name], ...value.map((v) => [8, v]), [20, 7]]);
  if (Number.isInteger(value))
    return message([
      [1, name],
      [3, value],
      [20, 2],
    ]);
  return message([
    [1, name],
    [2, new Float32(value)],
    [20, 1],
  ]);
}

function node(op, inputs, outputs, attributes = {}, domain = undefined) {
  return message([
    ...inputs.map((i) => [1, i]),
    ...outputs.map((o) => [2, o]),
    [4, op],
    ...Object.entries(attributes).map(([k, v]) => [5, attribute(k, v)]),
    [7, domain],
  ]);
}

function model(nodes, initializers, inputs, outputs, opsets) {
  const graph = message([
    ...nodes.map((n) => [1, n]),
    [2, 'attention'],
    ...initializers.map((t) => [5, t]),
    ...inputs.map((i) => [11, i]),
    ...outputs.map((o) => [12, o]),
  ]);
  return message([
    [1, 8], // ir_version
    [7, graph],
    ...opsets.map(([domain, version]) => [
      8,
      message([
        [1, domain],
        [2, version],
      ]),
    ]),
  ]);
}

/**
 * The attention layer from plain ONNX ops: X [n × d] → Q, K, V → heads → QKᵀ·(1/√dK) → Softmax →
 * A·V → concat → W_O. Weights are initializers (as in a model file), X the only input.
 */
export function plainAttentionModel({ n, d, heads, wQ, wK, wV, wO }) {
  const dK = d / heads;
  const init = [
    tensor('wQ', [d, d], wQ),
    tensor('wK', [d, d], wK),
    tensor('wV', [d, d], wV),
    tensor('wO', [d, d], wO),
    tensor('headShape', [3], [n, heads, dK]),
    tensor('flatShape', [2], [n, d]),
    tensor('alpha', [], new Float32Array([1 / Math.sqrt(dK)])),
  ];
  const nodes = [
    node('MatMul', ['x', 'wQ'], ['q']),
    node('MatMul', ['x', 'wK'], ['k']),
    node('MatMul', ['x', 'wV'], ['v']),
    node('Reshape', ['q', 'headShape'], ['q3']),
    node('Reshape', ['k', 'headShape'], ['k3']),
    node('Reshape', ['v', 'headShape'], ['v3']),
    node('Transpose', ['q3'], ['qh'], { perm: [1, 0, 2] }), // [h, n, dK]
    node('Transpose', ['k3'], ['khT'], { perm: [1, 2, 0] }), // [h, dK, n]
    node('Transpose', ['v3'], ['vh'], { perm: [1, 0, 2] }),
    node('MatMul', ['qh', 'khT'], ['scores']),
    node('Mul', ['scores', 'alpha'], ['scaled']),
    node('Softmax', ['scaled'], ['weights'], { axis: -1 }),
    node('MatMul', ['weights', 'vh'], ['heads']),
    node('Transpose', ['heads'], ['headsT'], { perm: [1, 0, 2] }),
    node('Reshape', ['headsT', 'flatShape'], ['concat']),
    node('MatMul', ['concat', 'wO'], ['output']),
  ];
  return model(nodes, init, [valueInfo('x', [n, d])], [valueInfo('output', [n, d])], [['', 17]]);
}

/** The same layer with onnxruntime's fused com.microsoft.MultiHeadAttention between the projections. */
export function fusedAttentionModel({ n, d, heads, wQ, wK, wV, wO }) {
  const init = [tensor('wQ', [d, d], wQ), tensor('wK', [d, d], wK), tensor('wV', [d, d], wV), tensor('wO', [d, d], wO)];
  const nodes = [
    node('MatMul', ['x', 'wQ'], ['q']),
    node('MatMul', ['x', 'wK'], ['k']),
    node('MatMul', ['x', 'wV'], ['v']),
    node('MultiHeadAttention', ['q', 'k', 'v'], ['concat'], { num_heads: heads }, 'com.microsoft'),
    node('MatMul', ['concat', 'wO'], ['output']),
  ];
  return model(
    nodes,
    init,
    [valueInfo('x', [1, n, d])],
    [valueInfo('output', [1, n, d])],
    [
      ['', 17],
      ['com.microsoft', 1],
    ],
  );
}

/** One MatMul, A [m × k] input, B [k × n] an initializer: the GEMM of the benchmark. */
export function matMulModel({ m, k, n, b }) {
  return model(
    [node('MatMul', ['a', 'b'], ['c'])],
    [tensor('b', [k, n], b)],
    [valueInfo('a', [m, k])],
    [valueInfo('c', [m, n])],
    [['', 17]],
  );
}
