#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz harnesses: tests/fuzz/corpus/{tokenize,run,model_file,bpe}/.

The seeds are the edge cases of what a learner may type or paste (empty input, one token, only
punctuation, only spaces, a long paste, emoji and ZWJ sequences, combining marks, right-to-left
text, control characters, mixed scripts, every row masked, temperature at its bounds, extreme
weights, NaN and Infinity in given matrices) in each harness's input layout (see the comment at
the top of run_fuzzer.cpp).
Run it after changing that layout: python3 tests/fuzz/make_corpus.py
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

TEXTS = {
    'empty': '',
    'one_token': 'hello',
    'only_punctuation': '?!…,.;:()「」',
    'only_spaces': ' \t\n\u00a0\u3000 ',
    'sentence': 'I love 火锅! The cat sat on the mat.',
    'chinese': '我爱吃火锅',
    'emoji_zwj': '👨\u200d👩\u200d👧\u200d👦 🏳️\u200d🌈 👍🏽 🇨🇳🇺🇸 1️⃣ ❤️ 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f',
    'combining_marks': 'e\u0301cole \u0301\u0302 Z\u0335\u0321\u031b\u0354a\u0337lgo नमस्ते',
    'right_to_left': 'שלום עולם מרחבא بالعالم! \u200fمَرْحَبًا\u200e، \u202eabc\u202c',
    'control_characters': 'a\x00b\x01c\x1b[0m\x7fd\u0085e\u009ff\r\n',
    'mixed_scripts': 'Hello 世界 Привет مرحبا 🙂 नमस्ते こんにちは 한국어 Γειά',
    'keycaps_and_flags': '#️⃣ 12\u20e3 🇺🇸🇨',
}

# A long paste: the tokenizer corpus keeps 10,000 characters; the run harness only reads its
# first 24 tokens, so it gets a shorter one.
PASTE = ('The quick brown fox jumps over the lazy dog. 我爱吃火锅！ 👍🏽 ' * 250)[:10000]

INVALID_UTF8 = {
    'invalid_lead_byte': b'ab\x80cd',
    'invalid_continuation': b'\xe4\xbd\x41',
    'truncated': b'ok \xf0\x9f\x98',
    'overlong': b'\xc0\xaf\xe0\x80\xaf',
    'surrogate': b'\xed\xa0\x80',
    'above_max': b'\xf4\x90\x80\x80',
}

TEMPERATURES = [1.0, 0.01, 100.0, 0.5, 2.0, 0.0099, 100.5]  # indexes into kTemperatures
GIVEN = ['x', 'xKv', 'wQ', 'wK', 'wV', 'wO', 'bQ', 'bK', 'bV', 'bO']
MASKS = ['none', 'causal', 'window', 'padding', 'custom', 'longformer', 'bigbird', 'dilated']
EMBEDDINGS = ['hash', 'stream', 'given']
SPECIAL = [0.0, 1.0, -1.0, 0.5, 1e30, -1e30, 1e19, -1e19, 1.5e19, 3e38, -3e38, 1e-45, 1e-38, 65504.0, 'nan', 'inf']


def run_seed(text, kv=None, d_model=8, heads=2, d_k=0, no_scale=False, bias=False, no_wo=False,
             no_pe=False, randn=False, raw=False, causal=False, embedding='hash', mask='none',
             width=1, temperature=1.0, seed=42, given=(), taller=False, values='small', data=b''):
    """One input of run_fuzzer.cpp's layout."""
    flags = (no_scale * 1 | bias * 2 | no_wo * 4 | no_pe * 8 | randn * 16 | (kv is not None) * 32
             | raw * 64 | causal * 128)
    given_bits = sum(1 << GIVEN.index(g) for g in given) | taller << 10
    given_bits |= ['small', 'special', 'raw', 'large'].index(values) << 11
    header = bytes([
        d_model, heads, 0 if d_k == 0 else 160 + d_k + 1, flags,
        EMBEDDINGS.index(embedding) + 3 * MASKS.index(mask), width + 2,
        TEMPERATURES.index(temperature),
    ]) + struct.pack('<IH', seed, given_bits)
    body = text.encode() if isinstance(text, str) else text
    body += b'\0'
    if kv is not None:
        body += (kv.encode() if isinstance(kv, str) else kv) + b'\0'
    return header + body + data


def special(*values):
    return bytes(SPECIAL.index(v) for v in values)


def run_seeds():
    seeds = {}
    for name, text in TEXTS.items():
        seeds[name] = run_seed(text)
        seeds[name + '_causal_4_heads'] = run_seed(text, d_model=16, heads=4, mask='causal', bias=True)
    seeds['paste'] = run_seed(PASTE[:600], d_model=32, heads=4)
    seeds['cross_attention'] = run_seed('I love hot pot', kv='我爱吃火锅', mask='window', width=1, causal=True)
    seeds['cross_one_key'] = run_seed('a b c d', kv='z')
    seeds['tutorial_stream'] = run_seed('我 爱 吃 火锅', d_model=8, heads=1, d_k=4, no_pe=True, no_wo=True,
                                        randn=True, embedding='stream', seed=42)
    seeds['raw_tokens'] = run_seed(b'\xe6\x88\x91\x1f\x1fok\x1f\xff')
    # Every row masked: a custom mask of zeros (even bytes), and padding on every key.
    seeds['custom_mask_all_zero'] = run_seed('a b c', mask='custom', data=bytes(9))
    seeds['custom_mask_one_row'] = run_seed('a b c', mask='custom', data=bytes([1, 1, 0, 0, 0, 0, 1, 0, 1]))
    seeds['padding_every_key'] = run_seed('a b c', mask='padding', data=bytes([3, 1, 2, 3]))
    seeds['window_zero'] = run_seed('a b c d e', mask='window', width=0)
    # The sparse patterns' option bytes: dilation, block, random + 1, global count, global + 1.
    seeds['longformer_two_globals'] = run_seed('the cat sat on the mat today', mask='longformer', width=1,
                                               data=bytes([0, 0, 0, 2, 1, 5]))
    seeds['bigbird_blocks'] = run_seed('one two three four five six seven', mask='bigbird', width=1, causal=True,
                                       data=bytes([0, 2, 2, 1, 1]))
    seeds['dilated_two'] = run_seed('a b c d e f g h', mask='dilated', width=2, data=bytes([2]))
    seeds['dilated_zero_refused'] = run_seed('a b c', mask='dilated', width=1, data=bytes([0]))
    for t in [0.01, 100.0, 0.0099, 100.5]:
        seeds[f'temperature_{t}'] = run_seed('we love attention', temperature=t, randn=True)
    seeds['extreme_weights_overflow'] = run_seed('a b', d_model=4, heads=1, given=['wQ', 'wK'], values='special',
                                                 data=special(1e30, -1e30) * 16)
    seeds['extreme_values_pass_through'] = run_seed('a b', d_model=4, heads=1, given=['wV'], values='special',
                                                    data=special(1e30, -1e30) * 8)
    # Scores 2.25e38 and −1.5e38 in one row: finite, but their difference is not.
    seeds['extreme_score_spread'] = run_seed('a b', d_model=1, heads=1, no_scale=True, no_wo=True, no_pe=True,
                                             embedding='given', given=['x', 'wQ', 'wK', 'wV'], values='special',
                                             data=special(1.5e19, -1e19, 1.0, 1.0, 1.0))
    seeds['given_nan'] = run_seed('a b', d_model=2, heads=1, given=['wO'], values='special',
                                  data=special(1.0, 'nan', 0.5, 0.5))
    seeds['given_infinity'] = run_seed('a b', d_model=2, heads=1, embedding='given', given=['x'], values='special',
                                       data=special(1.0, 0.5, 'inf', 0.5))
    seeds['given_raw_floats'] = run_seed('a b c', d_model=4, heads=2, bias=True, given=['wQ', 'bQ', 'bO'],
                                         values='raw', data=struct.pack('<24f', *[(-1) ** i * 2.0 ** (i - 12) for i in range(24)]))
    seeds['given_wrong_shape'] = run_seed('a b', d_model=4, heads=1, given=['wK'], taller=True)
    seeds['bad_dmodel'] = run_seed('a', d_model=0)
    seeds['bad_heads'] = run_seed('a', d_model=10, heads=3)
    return seeds


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def model_file(config=b'{"layers":1}', vocabulary=(b'<pad>', b'a'), tensors=(), version=1):
    """A model file as docs/model-format.md lays it out; tensors are (name, type, shape, raw data)."""
    body = struct.pack('<I', len(config)) + config + struct.pack('<I', len(vocabulary))
    for symbol in vocabulary:
        body += struct.pack('<I', len(symbol)) + symbol
    body += struct.pack('<I', len(tensors))
    for name, kind, shape, data in tensors:
        body += struct.pack('<H', len(name)) + name + struct.pack('<BB', kind, len(shape))
        body += struct.pack('<%dI' % len(shape), *shape) + struct.pack('<Q', len(data)) + data
    size = 8 + 4 + 8 + len(body) + 8
    head = b'ATTNMODL' + struct.pack('<IQ', version, size) + body
    return head + struct.pack('<Q', fnv1a64(head))


def language_model_file(vocab_size, context_length, value, kind=1):
    """A character-level model of one layer, dModel 4 and 1 head that LoadModel takes: every
    tensor element (float16, or float32 for kind 0) from value(i), tensor by tensor; `vocab_size` − 4 code points after
    the four specials (from U+0100, the surrogates skipped)."""
    config = {
        'attentionOnly': False, 'causal': True, 'contextLength': context_length, 'dFF': 0, 'dK': 0,
        'dModel': 4, 'format': 'attention-explorer model', 'heads': 1, 'initStd': 0.02,
        'layers': 1, 'positionalEncoding': 'sinusoidal', 'residual': True, 'scale': True,
        'tiedEmbeddings': True, 'vocabSize': vocab_size, 'vocabulary': 'character',
    }
    symbols = [b'<pad>', b'<unk>', b'<bos>', b'<eos>']
    code = 0x100
    while len(symbols) < vocab_size:
        if not 0xd800 <= code <= 0xdfff:
            symbols.append(chr(code).encode())
        code += 1
    shapes = [('tokenEmbedding', (vocab_size, 4))]
    for name, cols in (('ln1Gain', 4), ('ln1Bias', 4), ('wQ', 4), ('bQ', 4), ('wK', 4), ('bK', 4),
                       ('wV', 4), ('bV', 4), ('wO', 4), ('bO', 4), ('ln2Gain', 4), ('ln2Bias', 4),
                       ('w1', 16), ('b1', 16), ('w2', 4), ('b2', 4)):
        rows = 1 if name[0] in 'bl' else (16 if name == 'w2' else 4)
        shapes.append(('layers.0.' + name, (rows, cols)))
    shapes += [('lnFinalGain', (1, 4)), ('lnFinalBias', (1, 4))]
    tensors = []
    for name, shape in shapes:
        n = shape[0] * shape[1]
        data = struct.pack('<%d%s' % (n, 'e' if kind else 'f'), *[value(i) for i in range(n)])
        tensors.append((name.encode(), kind, shape, data))
    text = json.dumps(config, separators=(',', ':')).encode()
    return model_file(config=text, vocabulary=symbols, tensors=tensors)


def model_file_seeds():
    f32 = ('embedding', 0, (2, 3), struct.pack('<6f', 0.5, -1.0, 2.0, 1e-3, -65504.0, 3.0))
    f16 = ('blocks.0.wq', 1, (2, 1, 2), struct.pack('<4H', 0x3c00, 0xbc00, 0x0001, 0x7bff))
    tensors = [(n.encode(), k, s, d) for n, k, s, d in (f32, f16)]
    valid = model_file(vocabulary=(b'<pad>', b'<unk>', '火'.encode(), '👩‍💻'.encode()), tensors=tensors)
    nan = bytearray(model_file(tensors=[(b'w', 0, (1,), struct.pack('<I', 0x7fc00000))]))
    return {
        'valid': valid,
        'empty': b'',
        'truncated': valid[:len(valid) // 2],
        'altered': valid[:40] + bytes([valid[40] ^ 1]) + valid[41:],
        'wrong_magic': b'\x89PNG\r\n\x1a\n' + valid[8:],
        'wrong_version': model_file(version=2),
        'nan': bytes(nan),
        'zero_dimension': model_file(tensors=[(b'w', 0, (0, 3), b'')]),
        'shape_disagrees': model_file(tensors=[(b'w', 0, (2, 2), struct.pack('<3f', 1, 2, 3))]),
        'duplicate_name': model_file(tensors=[(b'w', 0, (1,), b'\0' * 4)] * 2),
        'no_tensors': model_file(config=b'', vocabulary=()),
        # Finite weights (±3.4e38, float32) whose forward pass overflows.
        'huge_weights': language_model_file(16, 8, lambda i: 3.4e38 if i % 2 else -3.4e38, kind=0),
        # A large vocabulary × context (4,096 × 2,048) in a small file.
        'large_vocabulary': language_model_file(4096, 2048, lambda i: ((i * 7919) % 200 - 100) / 400),
        # Regression: a small model of the longest context, whose pass over the whole context the
        # harness once ran (context × dModel under its bound): seconds under ASan, past the
        # per-input timeout of a loaded machine. The harness now bounds that pass by its work.
        'regression_long_context_pass': language_model_file(16, 2048, lambda i: ((i * 31) % 50 - 25) / 100),
    }


def bpe_input(vocabulary, merges, text):
    """One input of bpe_fuzzer.cpp's layout: vocabulary, merges and text joined by 0x00."""
    parts = [p.encode() if isinstance(p, str) else p for p in (vocabulary, merges, text)]
    return b'\0'.join(parts)


def bpe_seeds():
    # transformers' toy GPT-2 vocabulary (the hf-tiny-gpt2 fixture's), and every byte of GPT-2's
    # alphabet (bytes_to_unicode) with a few merges, so that any text encodes.
    toy = json.dumps({t: i for i, t in enumerate(
        ['l', 'o', 'w', 'e', 'r', 's', 't', 'i', 'd', 'n', '\u0120', '\u0120l', '\u0120n', '\u0120lo',
         '\u0120low', 'er', '\u0120lowest', '\u0120newer', '\u0120wider', '<unk>', '<|endoftext|>'])})
    toy_merges = '#version: 0.2\n\u0120 l\n\u0120l o\n\u0120lo w\ne r\n'
    printable = [b for b in range(256) if 0x21 <= b <= 0x7e or 0xa1 <= b <= 0xac or b >= 0xae]
    others = [b for b in range(256) if b not in printable]
    char = {b: chr(b) for b in printable}
    char.update({b: chr(256 + i) for i, b in enumerate(others)})
    spellings = [char[b] for b in range(256)] + ['\u0120t', 'he', '\u0120the', '\u00e4\u00b8']
    full = json.dumps({t: i for i, t in enumerate(spellings)}, ensure_ascii=False)
    full_merges = '#version: 0.2\n\u0120 t\nh e\n\u0120t he\n\u00e4 \u00b8\n'
    return {
        'toy_lower_newer': bpe_input(toy, toy_merges, ' lower newer'),
        'toy_missing_byte': bpe_input(toy, toy_merges, 'low x'),
        'bytes_sentence': bpe_input(full, full_merges, TEXTS['sentence'] + ' the ' + TEXTS['mixed_scripts']),
        'bytes_emoji': bpe_input(full, full_merges, TEXTS['emoji_zwj']),
        'bytes_spaces': bpe_input(full, full_merges, '  leading\n\n trailing   \u0085\u3000'),
        'bytes_invalid_text': bpe_input(full, full_merges, b'ok \xe4\xb8'),
        'vocab_not_object': bpe_input('[1, 2]', toy_merges, 'x'),
        'vocab_bad_escape': bpe_input('{"\\ud800": 0}', toy_merges, 'x'),
        'vocab_repeated_id': bpe_input('{"a": 0, "b": 0}', '#version: 0.2\n', 'ab'),
        'merges_no_header': bpe_input(toy, 'e r\n', 'er'),
        'merges_later_symbol': bpe_input(toy, '#version: 0.2\n\u0120l o\n\u0120 l\n', 'x'),
        'merges_unknown_result': bpe_input(toy, '#version: 0.2\nl o\n', 'x'),
        'empty': b'',
    }


def safetensors_seeds():
    """model.safetensors seeds: the NumPy reference's checkpoints (the F32 ones load under the
    harness's config.json, the F16 and BF16 ones are read and then refused by shape) and a few
    refusals made from one of them."""
    fixtures = os.path.join(HERE, '..', 'fixtures', 'gpt2')
    seeds = {}
    for case in ('bare_f32', 'prefixed_f32', 'prefixed_lm_head_f32', 'bare_f16', 'bare_bf16'):
        with open(os.path.join(fixtures, case, 'model.safetensors'), 'rb') as f:
            seeds[case] = f.read()
    good = seeds['bare_f32']
    (n,) = struct.unpack('<Q', good[:8])
    seeds['empty'] = b''
    seeds['header_past_the_file'] = struct.pack('<Q', len(good)) + good[8:]
    seeds['truncated_data'] = good[:-4]
    seeds['trailing_data'] = good + b'\0' * 4
    seeds['not_json'] = struct.pack('<Q', 4) + b'{"a"'
    nan_at = 8 + n  # the first float of the data: wte.weight[0][0]
    seeds['nan'] = good[:nan_at] + struct.pack('<f', float('nan')) + good[nan_at + 4:]
    return seeds


def write(folder, files):
    # Files are (over)written, never deleted: regression inputs saved beside them stay.
    path = os.path.join(HERE, 'corpus', folder)
    os.makedirs(path, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(path, name), 'wb') as f:
            f.write(data)


def main():
    tokenize = {name: text.encode() for name, text in TEXTS.items()}
    tokenize['paste_10000_characters'] = PASTE.encode()
    tokenize['paste_one_word'] = b'a' * 10000
    tokenize.update(INVALID_UTF8)
    write('tokenize', tokenize)
    write('run', run_seeds())
    write('model_file', model_file_seeds())
    write('bpe', bpe_seeds())
    write('safetensors', safetensors_seeds())


if __name__ == '__main__':
    main()
