// What every result of the tokenizer and of a run must satisfy, whatever the input: shared by
// the libFuzzer harnesses (which abort on a violation) and tests/cpp/robustness_test.cpp
// (which reports it). Each check returns "" when all holds, else the first violation in words.
//
// The separators and the UTF-8 rules are re-derived here from the Unicode definitions rather
// than taken from cpp/src/unicode.hpp, so that the oracle does not share the engine's bugs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "attention/config.hpp"
#include "attention/sparse_pattern.hpp"
#include "attention/status.hpp"
#include "attention/tokenizer.hpp"
#include "attention/trace.hpp"

namespace attention::invariants {

// Unicode White_Space (PropList.txt) and the C0/C1 controls: what Tokenize drops.
inline bool IsSeparator(char32_t c) {
  switch (c) {
    case 0x0020:
    case 0x0085:
    case 0x00A0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c <= 0x1F || (c >= 0x7F && c <= 0x9F) || (c >= 0x2000 && c <= 0x200A);
  }
}

// Length of the well-formed UTF-8 sequence at `text[i]` (Unicode Table 3-7), or 0.
inline std::size_t SequenceLength(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) {
    return k < text.size() ? static_cast<std::uint8_t>(text[k]) : std::uint8_t{0};
  };
  const std::uint8_t b0 = byte(i);
  const auto tail = [](std::uint8_t b) { return b >= 0x80 && b <= 0xBF; };
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return tail(byte(i + 1)) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    const std::uint8_t lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
    const std::uint8_t b1 = byte(i + 1);
    return b1 >= lo && b1 <= hi && tail(byte(i + 2)) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    const std::uint8_t lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
    const std::uint8_t b1 = byte(i + 1);
    return b1 >= lo && b1 <= hi && tail(byte(i + 2)) && tail(byte(i + 3)) ? 4 : 0;
  }
  return 0;
}

// Byte offset where the first ill-formed sequence starts, or text.size() when all is valid.
inline std::size_t FirstInvalidOffset(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = SequenceLength(text, i);
    if (length == 0) return i;
    i += length;
  }
  return text.size();
}

// The code point of a well-formed sequence of `length` bytes at `text[i]`.
inline char32_t CodePointAt(std::string_view text, std::size_t i, std::size_t length) {
  static constexpr std::uint8_t kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t c = static_cast<std::uint8_t>(text[i]) & kLeadMask[length];
  for (std::size_t k = 1; k < length; ++k)
    c = (c << 6) | (static_cast<std::uint8_t>(text[i + k]) & 0x3F);
  return c;
}

// Moves `*i` past the separators that start there (valid UTF-8 assumed).
inline void SkipSeparators(std::string_view text, std::size_t* i) {
  while (*i < text.size()) {
    const std::size_t length = SequenceLength(text, *i);
    if (length == 0 || !IsSeparator(CodePointAt(text, *i, length))) return;
    *i += length;
  }
}

inline std::string Quote(std::string_view s) {
  std::string out;
  for (const char ch : s.substr(0, 40)) {
    const auto b = static_cast<std::uint8_t>(ch);
    if (b >= 0x20 && b < 0x7F) {
      out += ch;
    } else {
      static const char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return "\"" + out + (s.size() > 40 ? "…\"" : "\"");
}

// Tokenize(text) gave `status` and `tokens`. Valid text: the tokens, in order, are the text's
// bytes with only separators (white space, controls) left out, none is empty or holds a
// separator, and each one tokenizes to itself. Invalid text: kInvalidUtf8 for "text", naming a
// byte offset inside the first ill-formed sequence, and no tokens. Oversized text: kLimitExceeded.
inline std::string CheckTokenization(std::string_view text, const Status& status,
                                     const std::vector<std::string>& tokens) {
  if (text.size() > static_cast<std::size_t>(Limits::kMaxTextBytes)) {
    if (status.code() != ErrorCode::kLimitExceeded || status.field() != "text") {
      return "oversized text was not refused with kLimitExceeded: " + status.message();
    }
    return tokens.empty() ? "" : "oversized text still gave tokens";
  }
  const std::size_t invalid = FirstInvalidOffset(text);
  if (invalid < text.size()) {
    if (status.ok()) return "ill-formed UTF-8 at byte " + std::to_string(invalid) + " was accepted";
    if (status.code() != ErrorCode::kInvalidUtf8 || status.field() != "text") {
      return "ill-formed UTF-8 gave code " + std::string(ErrorCodeName(status.code())) +
             " field \"" + status.field() + "\"";
    }
    const std::string& message = status.message();
    const std::string phrase = "at byte offset ";
    const std::size_t at = message.find(phrase);
    if (message.rfind("text is not valid UTF-8: ", 0) != 0 || at == std::string::npos) {
      return "the UTF-8 error message names no byte offset: " + message;
    }
    const unsigned long offset = std::stoul(message.substr(at + phrase.size()));
    if (offset < invalid || offset > invalid + 3 || offset >= text.size()) {
      return "the first ill-formed sequence starts at byte " + std::to_string(invalid) +
             " but the message says: " + message;
    }
    return tokens.empty() ? "" : "tokens were left after an error";
  }
  if (!status.ok()) return "valid text was refused: " + status.message();
  std::size_t cursor = 0;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const std::string& token = tokens[t];
    if (token.empty()) return "token " + std::to_string(t) + " is empty";
    SkipSeparators(text, &cursor);
    if (text.compare(cursor, token.size(), token) != 0) {
      return "token " + std::to_string(t) + " " + Quote(token) +
             " is not the next non-separator text at byte " + std::to_string(cursor);
    }
    for (std::size_t i = 0; i < token.size();) {
      const std::size_t length = SequenceLength(token, i);
      if (length == 0) return "token " + std::to_string(t) + " is cut inside a character";
      if (IsSeparator(CodePointAt(token, i, length))) {
        return "token " + std::to_string(t) + " " + Quote(token) + " holds a separator";
      }
      i += length;
    }
    std::vector<std::string> again;
    if (!Tokenize(token, &again).ok() || again.size() != 1 || again[0] != token) {
      return "token " + std::to_string(t) + " " + Quote(token) + " does not tokenize to itself";
    }
    cursor += token.size();
  }
  SkipSeparators(text, &cursor);
  if (cursor != text.size()) {
    return "text from byte " + std::to_string(cursor) +
           " is in no token: " + Quote(text.substr(cursor));
  }
  return "";
}

// A failed run: a code, the field at fault and a sentence that names it.
inline std::string CheckError(const Status& status) {
  if (status.ok()) return "expected an error";
  if (status.field().empty()) return "an error with no field: " + status.message();
  if (status.message().empty()) return "an error with no message, field " + status.field();
  if (status.message().find(status.field()) == std::string::npos) {
    return "the message does not name its field \"" + status.field() + "\": " + status.message();
  }
  return "";
}

// A successful run: every step exists with its documented shape, holds no NaN and no infinity
// (except −∞ exactly where `masked` is masked), the weights are a distribution over the visible
// keys (rows sum to 1, masked entries 0) or an all-zero row flagged in rowMasked, the row
// statistics match the weights, and head outputs are the slices of concat.
inline std::string CheckTrace(const Trace& trace) {
  const int n = trace.n_query(), m = trace.n_key(), heads = trace.config().heads;
  const int d_k = trace.config().ResolvedDK();
  Matrix mask, row_masked, concat;
  if (!trace.Copy("mask", 0, &mask).ok() || !trace.Copy("rowMasked", 0, &row_masked).ok() ||
      !trace.Copy("concat", 0, &concat).ok()) {
    return "mask, rowMasked or concat is missing";
  }
  for (const StepInfo& info : StepCatalog()) {
    const std::string name = info.name;
    Matrix v;
    if (!trace.HasStep(info)) {
      if (trace.Copy(name, 0, &v).code() != ErrorCode::kUnknownStep) {
        return name + " exists in self-attention";
      }
      continue;
    }
    for (int h = 0; h < (info.per_head ? heads : 1); ++h) {
      const std::string where = name + (info.per_head ? "[head " + std::to_string(h) + "]" : "");
      const Status status = trace.Copy(name, h, &v);
      if (!status.ok()) return where + ": " + status.message();
      // With W_O off, output is concat itself: [n × P], whatever the catalog's axis says.
      const Axis cols_axis =
          name == "output" && !trace.config().output_projection ? Axis::kProjection : info.cols;
      if (v.rows() != trace.AxisSize(info.rows) || v.cols() != trace.AxisSize(cols_axis)) {
        return where + " is " + std::to_string(v.rows()) + " × " + std::to_string(v.cols());
      }
      const bool is_masked_step = name == "masked";
      // A sparse pattern's scores outside it are formed for display only, after the trace was
      // accepted: its overflow check covers the pattern's scores, so outside them a huge given
      // Q or K may overflow. Inside the pattern, as everywhere else, every value is finite.
      const bool display_only_step =
          (name == "scores" || name == "scaled") && IsSparsePattern(trace.config().mask.type);
      for (Eigen::Index r = 0; r < v.rows(); ++r) {
        for (Eigen::Index c = 0; c < v.cols(); ++c) {
          const float x = v(r, c);
          const bool hidden = is_masked_step && mask(r, c) == 0.0f;
          if (display_only_step && mask(r, c) == 0.0f) continue;
          if (hidden ? x == -std::numeric_limits<float>::infinity() : std::isfinite(x)) continue;
          const std::string at = where + "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
          if (std::isnan(x)) return at + " is NaN";
          return at + (hidden ? " is masked but not −∞" : " is infinite");
        }
      }
      if (name == "headOutput" && v != concat.middleCols(h * d_k, d_k)) {
        return where + " differs from its slice of concat";
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    const bool none_visible = (mask.row(i).array() == 0.0f).all();
    if (row_masked(i, 0) != (none_visible ? 1.0f : 0.0f)) {
      return "rowMasked(" + std::to_string(i) + ") does not match the mask";
    }
  }
  for (int h = 0; h < heads; ++h) {
    Matrix weights, row_max, row_entropy;
    trace.Copy("weights", h, &weights);
    trace.Copy("rowMax", h, &row_max);
    trace.Copy("rowEntropy", h, &row_entropy);
    for (int i = 0; i < n; ++i) {
      const auto row = [&] {
        return "weights[head " + std::to_string(h) + "] row " + std::to_string(i);
      };
      double sum = 0.0;
      float largest = 0.0f;
      for (int j = 0; j < m; ++j) {
        const float a = weights(i, j);
        if (!(a >= 0.0f && a <= 1.0f))
          return row() + " has " + std::to_string(a) + " outside [0, 1]";
        if (mask(i, j) == 0.0f && a != 0.0f) return row() + " gives weight to a masked key";
        sum += a;
        largest = std::max(largest, a);
      }
      const double expected = row_masked(i, 0) == 1.0f ? 0.0 : 1.0;
      if (std::abs(sum - expected) > 1e-5 * (m + 1)) {
        return row() + " sums to " + std::to_string(sum) + ", not " + std::to_string(expected);
      }
      if (std::abs(row_max(i, 0) - largest) > 1e-6f) return row() + ": rowMax does not match";
      const double entropy = row_entropy(i, 0);
      if (!(entropy >= -1e-5 && entropy <= std::log(static_cast<double>(m)) + 1e-4)) {
        return row() + ": rowEntropy " + std::to_string(entropy) + " is outside [0, ln m]";
      }
    }
  }
  return "";
}

}  // namespace attention::invariants
