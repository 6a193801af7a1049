// libFuzzer harness 3: ReadModelFile on arbitrary bytes, twice: as given (magic, version, size
// and checksum checks) and "resealed", with the size and checksum fields rewritten to match, so
// that mutations reach the parser of the contents behind the checksum. Invariants:
//   failure: the field names a part of the model ("model…") and the message is not empty;
//   success: writing the result back gives exactly the bytes read (the format has one
//   encoding per content: float16 values survive the round trip bit for bit).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "attention/random.hpp"
#include "attention/train/model_file.hpp"

namespace {

void Fail(const std::string& why) {
  std::fprintf(stderr, "model_file invariant violated: %s\n", why.c_str());
  std::abort();
}

void Check(const std::vector<uint8_t>& bytes) {
  attention::train::ModelFile file;
  const attention::Status status = attention::train::ReadModelFile(bytes, &file);
  if (!status.ok()) {
    if (status.field().rfind("model", 0) != 0) Fail("field " + status.field());
    if (status.message().empty()) Fail("empty message for " + status.field());
    return;
  }
  std::vector<uint8_t> again;
  const attention::Status written = attention::train::WriteModelFile(file, &again);
  if (!written.ok()) Fail("a file that was read cannot be written: " + written.message());
  if (again != bytes) Fail("writing back gives other bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  Check(bytes);
  if (bytes.size() >= 28) {
    for (int i = 0; i < 8; ++i) bytes[12 + i] = static_cast<uint8_t>(uint64_t{size} >> (8 * i));
    const uint64_t checksum =
        attention::Fnv1a64(std::string_view(reinterpret_cast<const char*>(bytes.data()), size - 8));
    for (int i = 0; i < 8; ++i) bytes[size - 8 + i] = static_cast<uint8_t>(checksum >> (8 * i));
    Check(bytes);
  }
  return 0;
}
