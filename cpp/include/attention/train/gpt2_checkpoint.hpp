// A Hugging Face GPT-2 checkpoint (config.json + model.safetensors) as the engine's model.
// GPT-2 is the engine's own architecture (model_config.hpp): pre-LN blocks, LayerNorm with a
// biased variance and ε = 1e-5, GELU's tanh approximation ("gelu_new"), learned positions, logits
// from the token embedding. Only the names and the orientation differ:
//
//   checkpoint (Conv1D weights are [in, out], y = x·W + b)   engine (parameters.hpp)
//   wte.weight [V, C], wpe.weight [T, C]                      tokenEmbedding, positionEmbedding
//   h.<l>.ln_1.{weight,bias} [C]                              layers.<l>.ln1Gain, ln1Bias
//   h.<l>.attn.c_attn.weight [C, 3C], .bias [3C]              wQ | wK | wV (columns), bQ | bK | bV
//   h.<l>.attn.c_proj.weight [C, C], .bias [C]                wO, bO
//   h.<l>.ln_2.{weight,bias} [C]                              ln2Gain, ln2Bias
//   h.<l>.mlp.c_fc.weight [C, F], .bias [F]                   w1, b1
//   h.<l>.mlp.c_proj.weight [F, C], .bias [C]                 w2, b2
//   ln_f.{weight,bias} [C]                                    lnFinalGain, lnFinalBias
//
// Names may carry a "transformer." prefix (GPT2LMHeadModel's saves), all or none of them, and
// an lm_head.weight equal to wte.weight (tied). The causal-mask buffers h.<l>.attn.bias and
// h.<l>.attn.masked_bias are skipped: the engine's mask is causal. In c_attn, head h owns
// columns h·dK … (h+1)·dK − 1 of each third, as in the engine. GPT-2 reads token ids with no
// token added before the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "attention/status.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_config.hpp"
#include "attention/train/safetensors.hpp"

namespace attention::train {

// The engine's configuration of a GPT-2 config.json (text, JSON). Errors name
// "config.<key>": a model_type other than "gpt2", an activation_function other than "gelu_new",
// a layer_norm_epsilon other than 1e-5, scale_attn_weights false, scale_attn_by_inverse_layer_idx
// or add_cross_attention true, a size that is missing or not a whole number; a model of more
// parameters than ModelLimits allow (kLimitExceeded, field "config", before anything is
// allocated); a size beyond one limit ("config.n_layer (12) must be …").
Status Gpt2ConfigFromJson(std::string_view config_json, ModelConfig* config);

// config.json and model.safetensors as a model with their weights. Errors: those of
// Gpt2ConfigFromJson, of SafetensorsFile::Open and Read (safetensors.hpp), a tensor missing
// ("safetensors.tensors"), unexpected, or of another shape than the configuration needs
// ("safetensors.tensors.<name>", naming both shapes), an lm_head.weight that is not wte.weight.
// Every name and shape is checked before the model is allocated.
Status LoadGpt2Checkpoint(std::string_view config_json, const uint8_t* safetensors, size_t size,
                          std::unique_ptr<Model<float>>* model);
// The same of a model.safetensors of `size` bytes that is not in this memory (the WebAssembly
// binding: a JS Uint8Array), fetched through `source` as it is read
// (SafetensorsFile::OpenStreamed): a load then holds the model's weights and a few MB, not
// also the file's bytes.
Status LoadGpt2CheckpointStreamed(std::string_view config_json, uint64_t size,
                                  SafetensorsFile::ByteSource source,
                                  std::unique_ptr<Model<float>>* model);

}  // namespace attention::train
