// Step 1: tokens → embeddings X [n × dModel], and the sinusoidal positional encoding.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

// Row i is RandomState([lo32, hi32, seed]).randn(dModel), (lo32, hi32) = Fnv1a64(tokens[i]):
// the same text has the same vector in every sentence.
Matrix HashEmbeddings(const std::vector<std::string>& tokens, int d_model, uint32_t seed);

// PE[p, 2i] = sin(p / 10000^(2i/dModel)), PE[p, 2i+1] = cos(same angle); p from 0.
Matrix PositionalEncoding(int n, int d_model);

}  // namespace attention
