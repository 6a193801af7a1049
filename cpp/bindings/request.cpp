#include "request.hpp"

#include <optional>
#include <string>
#include <vector>

#include "attention/given.hpp"
#include "convert.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidArgument, field, message);
}

std::vector<std::string> ReadStrings(const val& array) {
  std::vector<std::string> out;
  const unsigned length = array["length"].as<unsigned>();
  out.reserve(length);
  for (unsigned i = 0; i < length; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

// A { data, rows, cols } object → Matrix, copied in one typed-array set.
Matrix ReadMatrix(const val& object) {
  const int rows = object["rows"].as<int>();
  const int cols = object["cols"].as<int>();
  Matrix m(rows, cols);
  val view(emscripten::typed_memory_view(static_cast<size_t>(m.size()), m.data()));
  view.call<void>("set", object["data"]);
  return m;
}

// `request[field]`, one of `table`'s names, into `out`; else an error naming the field and the
// allowed names.
template <typename E, size_t N>
Status ReadName(const val& request, const char* field, const std::string& label,
                const OptionName<E> (&table)[N], E* out) {
  const std::string name = request[field].as<std::string>();
  if (ValueOf(table, name, out)) return Status::Ok();
  return Invalid(label, label + " (\"" + name + "\") must be one of " + NameList(table));
}

Status ReadMask(const val& mask, MaskSpec* spec) {
  Status status = ReadName(mask, "type", "mask.type", kMaskTypes, &spec->type);
  if (!status.ok()) return status;
  switch (spec->type) {
    case MaskType::kNone:
    case MaskType::kCausal:
      break;
    case MaskType::kWindow:
    case MaskType::kLongformer:
    case MaskType::kBigBird:
    case MaskType::kDilated:
      // The patterns (sparse_pattern.hpp): JS fills every option, with its default.
      spec->width = mask["width"].as<int>();
      spec->causal = mask["causal"].as<bool>();
      spec->global_tokens = emscripten::convertJSArrayToNumberVector<int>(mask["global"]);
      spec->dilation = mask["dilation"].as<int>();
      spec->block = mask["block"].as<int>();
      spec->random = mask["random"].as<int>();
      spec->seed = mask["seed"].as<unsigned>();
      break;
    case MaskType::kPadding:
      spec->positions = emscripten::convertJSArrayToNumberVector<int>(mask["positions"]);
      break;
    case MaskType::kCustom: {
      spec->matrix.resize(mask["rows"].as<int>(), mask["cols"].as<int>());
      val view(emscripten::typed_memory_view(static_cast<size_t>(spec->matrix.size()),
                                             spec->matrix.data()));
      view.call<void>("set", mask["matrix"]);
      break;
    }
  }
  return Status::Ok();
}

}  // namespace

Status ReadRequest(const val& request, Config* config, Input* input) {
  config->d_model = request["dModel"].as<int>();
  config->heads = request["heads"].as<int>();
  config->d_k = request["dK"].as<int>();
  config->seed = request["seed"].as<unsigned>();
  config->scale = request["scale"].as<bool>();
  config->temperature = request["temperature"].as<double>();
  config->bias = request["bias"].as<bool>();
  config->output_projection = request["outputProjection"].as<bool>();
  config->positional_encoding = request["positionalEncoding"].as<bool>();

  Status status = ReadName(request, "init", "init", kInits, &config->init);
  if (status.ok())
    status = ReadName(request, "embedding", "embedding", kEmbeddings, &config->embedding);
  if (status.ok())
    status = ReadName(request, "attention", "attention", kAttentionKinds, &config->attention);
  if (status.ok()) status = ReadMask(request["mask"], &config->mask);
  if (!status.ok()) return status;

  input->tokens = ReadStrings(request["tokens"]);
  input->cross = request["cross"].as<bool>();
  if (input->cross) input->kv_tokens = ReadStrings(request["kvTokens"]);

  const val given = request["given"];
  for (const GivenSlot& slot : kGivenSlots) {
    const val matrix = given[slot.name];
    if (!matrix.isUndefined() && !matrix.isNull()) input->given.*slot.given = ReadMatrix(matrix);
  }
  return Status::Ok();
}

val WriteRequest(const Config& config, const Input& input) {
  val out = val::object();
  out.set("tokens", StringArray(input.tokens));
  out.set("dModel", config.d_model);
  out.set("heads", config.heads);
  out.set("dK", config.ResolvedDK());
  out.set("scale", config.scale);
  out.set("bias", config.bias);
  out.set("outputProjection", config.output_projection);
  out.set("positionalEncoding", config.positional_encoding);
  out.set("embedding", std::string(NameOf(kEmbeddings, EmbeddingSource::kGiven)));
  out.set("mask",
          std::string(MaskTypeName(config.mask.type == MaskType::kCausal ? MaskType::kCausal
                                                                         : MaskType::kNone)));
  val given = val::object();
  for (const GivenSlot& slot : kGivenSlots) {
    const std::optional<Matrix>& m = input.given.*slot.given;
    if (!m.has_value()) continue;
    val matrix = val::object();
    matrix.set("rows", static_cast<int>(m->rows()));
    matrix.set("cols", static_cast<int>(m->cols()));
    matrix.set("data",
               val(emscripten::typed_memory_view(static_cast<size_t>(m->size()), m->data())));
    given.set(slot.name, matrix);
  }
  out.set("given", given);
  return out;
}

}  // namespace attention::bindings
