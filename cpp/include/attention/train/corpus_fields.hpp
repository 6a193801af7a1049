// The options of a text model that are not trainer fields: how a text becomes a vocabulary and
// windows (level, contextLength, vocabularySize, minCount, heldOut), one row each with its
// default and bounds. As trainer_fields.hpp's rows, they are the one place these are written: the
// page's text (cpp/bindings/corpus_text.cpp, model_corpus_handle.cpp) and the native
// attention_train_corpus (its flags) check by them, and the catalog exports them
// (cpp/bindings/catalog.cpp → CORPUS_TEXT_FIELDS of catalog.js), from which createCorpusTrainer
// takes its defaults and checks and the pages their level names.
//
// Two doors read a row: the page (createCorpusTrainer), whose text, ids and model share WASM
// memory with the explorer, stops at `page_max`; the native tool at `max`.
//
//   const CorpusTextField& f = CorpusTextFieldNamed("contextLength");  // int 2 … 2048, page 256
//   CheckCorpusTextField(f, 300, CorpusDoor::kPage)  // "contextLength (300) must be an integer
//                                                    //  from 2 to 256"
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/trainer_fields.hpp"

namespace attention::train {

enum class CorpusDoor { kPage, kTool };

struct CorpusTextField {
  const char* name = "";  // createCorpusTrainer's option
  // attention_train_corpus's flag, "" when the tool has none (it reads a held-out file instead
  // of cutting a share off).
  std::string flag;
  FieldKind kind = FieldKind::kInt;  // kInt, kNumber or kEnum
  bool required = false;             // no default: the caller names it
  double fallback = 0;               // the default (enum: the index into values)
  double min = 0, max = 0;           // int and number: min ≤ value ≤ max at the native tool
  bool min_open = false;             // value > min instead
  double page_max = 0;               // the page's max (≤ max)
  std::vector<std::string> values;   // enum: the allowed names; the value is the index
  const char* help = "";             // what it is, for --help and the type declarations
};

// Every row, in the order of the API's documentation.
const std::vector<CorpusTextField>& CorpusTextFields();
// The row named `name`; a name no row has is a programming error (it aborts).
const CorpusTextField& CorpusTextFieldNamed(std::string_view name);

// What `field` allows at `door`, as a message ends: "an integer from 2 to 256".
std::string CorpusAllowedValues(const CorpusTextField& field, CorpusDoor door);
// kInvalidArgument for field.name unless `value` is allowed at `door` ("minCount (0) must be an
// integer from 1 to 1000000"); an enum's value is its index.
Status CheckCorpusTextField(const CorpusTextField& field, double value, CorpusDoor door);

}  // namespace attention::train
