// libFuzzer harness 4: GPT-2's tokenizer (attention/bpe.hpp) built from hostile files, then run
// on a text. The input is three parts separated by 0x00 bytes: the vocabulary (JSON), the merges
// file and the text (a missing part is empty). What must hold:
//  - Create refused: the field is "vocab" or "merges" and the message names it and the file;
//  - Create accepted, then Encode: refused with a named error and no tokens; or tokens that
//    cover the text's bytes in order, each token's bytes the text's bytes there, decoding back
//    to exactly the text; the character groups cover the tokens and end on character
//    boundaries; a second Encode gives the same tokens;
//  - Decode of arbitrary ids (the text's bytes read as ids): valid UTF-8, or an "ids[i]" error.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "attention/bpe.hpp"
#include "invariants.hpp"

namespace {

using attention::BpeToken;
using attention::BpeTokenizer;
using attention::Status;

std::string CheckCreateError(const Status& status, const attention::BpeFileNames& names) {
  std::string violation = attention::invariants::CheckError(status);
  if (!violation.empty()) return violation;
  const std::string& field = status.field();
  if (field != "vocab" && field != "merges") return "Create's error names field " + field;
  const std::string& file = field == "vocab" ? names.vocab : names.merges;
  if (status.message().rfind(field + " (" + file + ")", 0) != 0) {
    return "Create's message does not start with its field and file: " + status.message();
  }
  return "";
}

std::string CheckEncoding(const BpeTokenizer& tokenizer, std::string_view text) {
  std::vector<BpeToken> tokens;
  const Status status = tokenizer.Encode(text, &tokens);
  if (!status.ok()) {
    if (!tokens.empty()) return "a refused Encode left tokens";
    if (status.field() != "text") return "Encode's error names field " + status.field();
    const bool invalid = attention::invariants::FirstInvalidOffset(text) < text.size();
    if (status.code() != attention::ErrorCode::kLimitExceeded &&
        invalid != (status.code() == attention::ErrorCode::kInvalidUtf8)) {
      return "Encode's verdict on UTF-8 is wrong: " + status.message();
    }
    return attention::invariants::CheckError(status);
  }
  if (attention::invariants::FirstInvalidOffset(text) < text.size()) {
    return "Encode accepted invalid UTF-8 " + attention::invariants::Quote(text);
  }
  int at = 0;
  std::vector<int> ids;
  for (const BpeToken& token : tokens) {
    if (token.begin != at || token.end <= token.begin) return "tokens do not cover the text";
    if (token.id < 0 || token.id >= tokenizer.size()) return "a token id outside the vocabulary";
    if (tokenizer.TokenBytes(token.id) != text.substr(token.begin, token.end - token.begin)) {
      return "a token's bytes are not the text's bytes there";
    }
    ids.push_back(token.id);
    at = token.end;
  }
  if (at != static_cast<int>(text.size())) return "tokens end before the text";
  std::string decoded;
  if (!tokenizer.Decode(ids, &decoded).ok() || decoded != text) return "decode is not the text";
  int next = 0;
  for (const attention::BpeCharacterGroup& group : attention::BpeCharacterGroups(text, tokens)) {
    if (group.first != next || group.count < 1) return "character groups do not cover the tokens";
    next = group.first + group.count;
    const std::string_view chars = text.substr(group.begin, group.end - group.begin);
    if (attention::invariants::FirstInvalidOffset(chars) != chars.size()) {
      return "a character group cuts a character";
    }
  }
  if (next != static_cast<int>(tokens.size())) return "character groups miss tokens";
  std::vector<BpeToken> again;
  if (!tokenizer.Encode(text, &again).ok() || again.size() != tokens.size()) {
    return "a second Encode differs";
  }
  for (std::size_t i = 0; i < again.size(); ++i) {
    if (again[i].id != tokens[i].id || again[i].end != tokens[i].end) {
      return "a second Encode differs";
    }
  }
  return "";
}

std::string CheckDecodeAny(const BpeTokenizer& tokenizer, std::string_view text) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < text.size() && i < 64; ++i) {
    ids.push_back(static_cast<std::uint8_t>(text[i]) - 8);
  }
  std::string decoded;
  const Status status = tokenizer.Decode(ids, &decoded);
  if (!status.ok()) {
    if (status.field().rfind("ids[", 0) != 0) return "Decode's error names " + status.field();
    return attention::invariants::CheckError(status);
  }
  if (attention::invariants::FirstInvalidOffset(decoded) != decoded.size()) {
    return "Decode gave invalid UTF-8";
  }
  return "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view parts[3];
  std::size_t start = 0;
  for (int p = 0; p < 3 && start <= input.size(); ++p) {
    const std::size_t end = p < 2 ? input.find('\0', start) : std::string_view::npos;
    parts[p] =
        input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const attention::BpeFileNames names{"vocab.json", "merges.txt"};
  BpeTokenizer tokenizer;
  const Status created = BpeTokenizer::Create(parts[0], parts[1], names, &tokenizer);
  std::string violation =
      created.ok() ? CheckEncoding(tokenizer, parts[2]) : CheckCreateError(created, names);
  if (violation.empty() && created.ok()) violation = CheckDecodeAny(tokenizer, parts[2]);
  if (!violation.empty()) {
    std::fprintf(stderr, "bpe invariant violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
