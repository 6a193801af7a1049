#!/usr/bin/python3
"""GPT-2's forward pass in NumPy (gpt2_reference.py, written without looking at the engine) on a
folder that `attention-explorer export-hf` wrote: reads its config.json and model.safetensors
with gpt2_reference's own safetensors reader and prints, as JSON, the tokens, every layer's
attention weights per head and the logits, as gpt2_reference's expected.json holds them.
tests/node/export-hf.test.mjs compares the engine's trace of the original model with it.
    /usr/bin/python3 tests/reference/export_forward.py <folder> 3,1,4,2
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt2_reference as ref  # noqa: E402


def main():
    folder, ids = sys.argv[1], [int(i) for i in sys.argv[2].split(",")]
    with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    # The exported config must be what GPT2Config would build this forward pass from.
    assert config["model_type"] == "gpt2" and config["activation_function"] == "gelu_new"
    assert config["layer_norm_epsilon"] == ref.EPS and config["tie_word_embeddings"] is True
    values = ref.read_safetensors(os.path.join(folder, "model.safetensors"))
    json.dump(ref.expected(config, values, ids), sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
