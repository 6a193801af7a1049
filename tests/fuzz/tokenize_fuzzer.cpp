// libFuzzer harness 1: Tokenize on arbitrary bytes. Any violation of
// invariants::CheckTokenization (tokens are the input minus separators, in order; invalid UTF-8
// is refused with the offset of the first bad sequence) aborts with the reason.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "attention/tokenizer.hpp"
#include "invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> tokens = {"stale"};
  const attention::Status status = attention::Tokenize(text, &tokens);
  const std::string violation = attention::invariants::CheckTokenization(text, status, tokens);
  if (!violation.empty()) {
    std::fprintf(stderr, "tokenize invariant violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
