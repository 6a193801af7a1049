// The object JS holds for a GPT-2 tokenizer (attention/bpe.hpp), wrapped by bpe_tokenizer.js,
// and its Embind block. Errors are recorded, never thrown: after a false or null result JS reads
// errorCode/errorField/errorMessage and throws an AttentionError.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "attention/bpe.hpp"
#include "attention/config.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

// A file's text, handed in as a JS string (UTF-8 on the way in) or as its bytes.
std::string TextOf(const val& text) {
  if (text.typeOf().as<std::string>() == "string") return text.as<std::string>();
  std::string out(text["length"].as<size_t>(), '\0');
  val(emscripten::typed_memory_view(out.size(), reinterpret_cast<unsigned char*>(out.data())))
      .call<void>("set", text);
  return out;
}

template <typename T>
val Int32Copy(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

}  // namespace

class BpeHandle {
 public:
  // The vocabulary (encoder.json / vocab.json) and merges (vocab.bpe / merges.txt), as strings
  // or bytes, with the names the files go by in errors. False on error.
  bool load(const val& vocabulary, const val& merges, const std::string& vocabulary_name,
            const std::string& merges_name) {
    BpeFileNames names;
    names.vocab = vocabulary_name;
    names.merges = merges_name;
    status_ = BpeTokenizer::Create(TextOf(vocabulary), TextOf(merges), names, &tokenizer_);
    return status_.ok();
  }

  int size() const { return tokenizer_.size(); }

  // { ids, begin, end, group }: Int32Arrays, one entry per token: its id, its bytes [begin, end)
  // in the text's UTF-8, and its character group (BpeCharacterGroups: tokens that share a
  // character share a group). Null on error.
  val encode(const std::string& text) {
    std::vector<BpeToken> tokens;
    status_ = tokenizer_.Encode(text, &tokens);
    if (!status_.ok()) return val::null();
    std::vector<int> ids, begin, end, group(tokens.size());
    for (const BpeToken& token : tokens) {
      ids.push_back(token.id);
      begin.push_back(token.begin);
      end.push_back(token.end);
    }
    const std::vector<BpeCharacterGroup> groups = BpeCharacterGroups(text, tokens);
    for (size_t g = 0; g < groups.size(); ++g) {
      for (int i = 0; i < groups[g].count; ++i) group[groups[g].first + i] = static_cast<int>(g);
    }
    val out = val::object();
    out.set("ids", Int32Copy(ids));
    out.set("begin", Int32Copy(begin));
    out.set("end", Int32Copy(end));
    out.set("group", Int32Copy(group));
    return out;
  }

  // Ids (an Int32Array) → text, U+FFFD where the ids cut a character. Null on error.
  val decode(const val& ids) {
    std::string text;
    status_ = tokenizer_.Decode(emscripten::convertJSArrayToNumberVector<int>(ids), &text);
    return status_.ok() ? val(text) : val::null();
  }

  // The vocabulary's spelling of each id (an Int32Array of valid ids: "Ġworld"), joined by
  // "\n", which no spelling has (GPT-2's alphabet spells the newline byte Ċ): one string
  // crosses into JS instead of one per token.
  std::string spellings(const val& ids) const {
    const std::vector<int> list = emscripten::convertJSArrayToNumberVector<int>(ids);
    std::string out;
    for (size_t i = 0; i < list.size(); ++i) {
      if (i > 0) out += '\n';
      if (list[i] >= 0 && list[i] < tokenizer_.size()) out += tokenizer_.TokenSpelling(list[i]);
    }
    return out;
  }

  std::string errorCode() const { return ErrorCodeName(status_.code()); }
  std::string errorField() const { return status_.field(); }
  std::string errorMessage() const { return status_.message(); }

 private:
  BpeTokenizer tokenizer_;
  Status status_;
};

}  // namespace attention::bindings

EMSCRIPTEN_BINDINGS(attention_bpe) {
  using attention::bindings::BpeHandle;
  emscripten::class_<BpeHandle>("BpeHandle")
      .constructor<>()
      .function("load", &BpeHandle::load)
      .function("size", &BpeHandle::size)
      .function("encode", &BpeHandle::encode)
      .function("decode", &BpeHandle::decode)
      .function("spellings", &BpeHandle::spellings)
      .function("errorCode", &BpeHandle::errorCode)
      .function("errorField", &BpeHandle::errorField)
      .function("errorMessage", &BpeHandle::errorMessage);
}
