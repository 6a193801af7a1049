// The keys each head role predicts, and the pooled scores (head_roles.hpp has the definitions).
#include "attention/train/head_roles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "attention/tokenizer.hpp"

namespace attention::train {

const std::vector<RoleInfo> kRoles = {
    {RoleKind::kPrevious, "previous", true, false},
    {RoleKind::kLineStart, "lineStart", false, false},
    {RoleKind::kCouplet, "couplet", false, false},
    {RoleKind::kRhyme, "rhyme", false, false},
    {RoleKind::kDuplicate, "duplicate", false, false},
    {RoleKind::kFirst, "first", false, false},
    {RoleKind::kInduction, "induction", false, false},
    {RoleKind::kBroad, "broad", false, false},
    {RoleKind::kNounModifier, "nounModifier", false, true},
    {RoleKind::kVerbNoun, "verbNoun", false, true},
    {RoleKind::kCloseQuote, "closeQuote", false, true},
};

const std::vector<LineMark> kLineMarks = {
    {"\n", MarkKind::kPoemEnd, true}, {"，", MarkKind::kOpening, true},
    {"。", MarkKind::kClosing, true}, {"！", MarkKind::kClosing, true},
    {"？", MarkKind::kClosing, true}, {"；", MarkKind::kClosing, true},
    {".", MarkKind::kClosing, false}, {"!", MarkKind::kClosing, false},
    {"?", MarkKind::kClosing, false}, {";", MarkKind::kClosing, false},
};

namespace {

// The row of kLineMarks of `s`, or nullptr for a token that is no mark.
const LineMark* MarkOf(const std::string& s) {
  for (const LineMark& mark : kLineMarks) {
    if (s == mark.text) return &mark;
  }
  return nullptr;
}
bool IsMark(const std::string& s) { return MarkOf(s) != nullptr; }
bool Is(const std::string& s, MarkKind kind) {
  const LineMark* mark = MarkOf(s);
  return mark != nullptr && mark->kind == kind;
}

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool IsNoun(const std::string& t) { return StartsWith(t, "nn") || StartsWith(t, "np"); }
bool IsModifier(const std::string& t) {
  static const std::array<const char*, 7> kExact = {"at", "abn", "abx", "ap", "pp$", "cd", "od"};
  return StartsWith(t, "dt") || StartsWith(t, "jj") ||
         std::any_of(kExact.begin(), kExact.end(), [&](const char* m) { return t == m; });
}

// A window's lines: [begin, end) each, a line ending after its run of marks (as
// head_labels.js's previousLinePositions cuts them); `text` is where its marks begin (end when
// the window ends inside the line). The first line may have begun before the window.
struct Line {
  int begin, end, text;
};

// What a line's run of marks says: it closes (。！？；…), it only opens a couplet (， alone), and
// whether it ends a poem (\n).
struct LineEnd {
  bool closing = false, opening = false, poem = false;
};
LineEnd EndOf(const Line& line, const std::vector<std::string>& symbols) {
  LineEnd out;
  if (line.text == line.end) return out;  // cut by the window: its end is unknown
  out.opening = true;
  for (int j = line.text; j < line.end; ++j) {
    out.closing = out.closing || Is(symbols[j], MarkKind::kClosing);
    out.poem = out.poem || Is(symbols[j], MarkKind::kPoemEnd);
    out.opening = out.opening && Is(symbols[j], MarkKind::kOpening);
  }
  return out;
}
std::vector<Line> Lines(const std::vector<std::string>& symbols) {
  std::vector<Line> lines;
  const int t = static_cast<int>(symbols.size());
  int begin = 0;
  for (int i = 0; i < t; ++i) {
    if (IsMark(symbols[i]) && (i + 1 == t || !IsMark(symbols[i + 1]))) {
      int text = i;
      while (text > begin && IsMark(symbols[text - 1])) --text;
      lines.push_back({begin, i + 1, text});
      begin = i + 1;
    }
  }
  if (begin < t) lines.push_back({begin, t, t});
  return lines;
}

// The rhyme's key for a query in line `line`: the last non-mark token of the nearest closing line
// before it, unless a poem ends (\n) first; -1 for none.
int PreviousRhyme(const std::vector<Line>& lines, size_t line,
                  const std::vector<std::string>& symbols) {
  for (size_t k = line; k-- > 0;) {
    const LineEnd end = EndOf(lines[k], symbols);
    if (end.poem) return -1;
    if (end.closing) return lines[k].text > lines[k].begin ? lines[k].text - 1 : -1;
  }
  return -1;
}

void PartOfSpeechKeys(RoleKind role, const std::vector<std::string>& tags, RoleKeys* keys) {
  const int t = static_cast<int>(tags.size());
  for (int i = 0; i < t; ++i) {
    std::vector<int>& k = (*keys)[i];
    if (role == RoleKind::kNounModifier && IsNoun(tags[i])) {
      for (int j = i - 1; j >= 0 && (IsModifier(tags[j]) || IsNoun(tags[j])); --j) {
        if (IsModifier(tags[j])) k.insert(k.begin(), j);
      }
    } else if (role == RoleKind::kVerbNoun && StartsWith(tags[i], "vb")) {
      for (int j = i - 1; j >= 0; --j) {
        if (IsNoun(tags[j]) || tags[j] == "pps" || tags[j] == "ppss") {
          k.push_back(j);
          break;
        }
      }
    } else if (role == RoleKind::kCloseQuote && tags[i] == "''") {
      for (int j = i - 1; j >= 0 && tags[j] != "''"; --j) {
        if (tags[j] == "``") {
          k.push_back(j);
          break;
        }
      }
    }
  }
}

}  // namespace

RoleKeys TextRoleKeys(RoleKind role, const std::vector<std::string>& symbols,
                      const std::vector<std::string>& tags) {
  const int t = static_cast<int>(symbols.size());
  RoleKeys keys(static_cast<size_t>(t));
  if (role == RoleKind::kNounModifier || role == RoleKind::kVerbNoun ||
      role == RoleKind::kCloseQuote) {
    if (tags.size() == symbols.size()) PartOfSpeechKeys(role, tags, &keys);
    return keys;
  }
  const std::vector<Line> lines = Lines(symbols);
  int last_mark = -1;
  size_t line = 0;
  for (int i = 0; i < t; ++i) {
    while (i >= lines[line].end) ++line;
    const bool mark = IsMark(symbols[i]);
    std::vector<int>& k = keys[i];
    switch (role) {
      case RoleKind::kPrevious:
        if (i >= 1) k.push_back(i - 1);
        break;
      case RoleKind::kLineStart:
        if (last_mark >= 1 && last_mark != i - 1) k.push_back(last_mark);
        break;
      case RoleKind::kCouplet: {
        // The closing line of a couplet, right after its opening line of the same length; the
        // opening line must have begun inside the window for its offsets to mean anything.
        const Line& here = lines[line];
        if (mark || line < 2 || !EndOf(here, symbols).closing) break;
        const Line& before = lines[line - 1];
        if (!EndOf(before, symbols).opening) break;
        if (before.text - before.begin != here.text - here.begin) break;
        k.push_back(before.begin + (i - here.begin));
        break;
      }
      case RoleKind::kRhyme: {
        // The query before a closing line's last character predicts the rhyme.
        const Line& here = lines[line];
        if (mark || i != here.text - 2 || i < here.begin || !EndOf(here, symbols).closing) break;
        const int j = PreviousRhyme(lines, line, symbols);
        if (j >= 0) k.push_back(j);
        break;
      }
      case RoleKind::kDuplicate:
        if (!mark && symbols[i] != "<unk>") {
          for (int j = 0; j < i - 1; ++j) {
            if (symbols[j] == symbols[i]) k.push_back(j);
          }
        }
        break;
      case RoleKind::kFirst:
        if (i >= 2) k.push_back(0);
        break;
      default:
        break;
    }
    if (mark) last_mark = i;
  }
  return keys;
}

RoleKeys RepeatedSequenceKeys(int length) {
  RoleKeys keys(static_cast<size_t>(length));
  const int r = length / 2;
  for (int i = r; i < 2 * r; ++i) keys[i].push_back(i - r + 1);
  return keys;
}

void RoleTally::Add(const float* weights, int length, const RoleKeys& keys) {
  if (offsets_.size() < static_cast<size_t>(length)) offsets_.resize(length, 0);
  for (int i = 0; i < length; ++i) {
    if (keys[i].empty()) continue;
    ++queries_;
    uniform_ += static_cast<double>(keys[i].size()) / (i + 1);
    for (int j : keys[i]) {
      weight_ += weights[static_cast<size_t>(i) * length + j];
      ++offsets_[i - j];
    }
  }
}

void RoleTally::AddEntropy(const float* weights, int length) {
  for (int i = 1; i < length; ++i) {
    double h = 0.0;
    for (int j = 0; j <= i; ++j) {
      const double w = weights[static_cast<size_t>(i) * length + j];
      if (w > 0) h -= w * std::log(w);
    }
    weight_ += h / std::log(i + 1.0);
    uniform_ += 1.0;
    ++queries_;
  }
}

RoleScore RoleTally::Result(const std::vector<double>& offset_weight) const {
  RoleScore out;
  out.queries = queries_;
  if (queries_ == 0) return out;
  out.score = weight_ / queries_;
  out.chance = uniform_ / queries_;
  out.ratio = out.chance > 0 ? out.score / out.chance : 0.0;
  if (!offset_weight.empty()) {
    double matched = 0.0;
    for (size_t d = 0; d < offsets_.size() && d < offset_weight.size(); ++d) {
      matched += offsets_[d] * offset_weight[d];
    }
    out.matched = matched / queries_;
    out.matched_ratio = out.matched > 0 ? out.score / out.matched : 0.0;
  }
  return out;
}

namespace {

// nn-tl → nn, fw-at → at, pps+bez → pps; "--" and other tags of punctuation stay as they are.
std::string BaseTag(std::string tag) {
  if (StartsWith(tag, "fw-")) tag = tag.substr(3);
  const size_t cut = tag.find_first_of("-+", 1);
  return cut == std::string::npos ? tag : tag.substr(0, cut);
}

}  // namespace

Status ReadTaggedText(const std::string& tagged, std::vector<std::string>* pieces,
                      std::vector<std::string>* tags) {
  std::istringstream in(tagged);
  std::string token;
  pieces->clear();
  tags->clear();
  for (int index = 0; in >> token; ++index) {
    const size_t slash = token.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == token.size()) {
      return Status(ErrorCode::kInvalidArgument, "tags[" + std::to_string(index) + "]",
                    "tags[" + std::to_string(index) + "] (" + token + ") must be word/tag");
    }
    std::vector<std::string> split;
    const Status status = Tokenize(token.substr(0, slash), &split);
    if (!status.ok()) return status;
    for (size_t k = 0; k < split.size(); ++k) {
      pieces->push_back(split[k]);
      tags->push_back(k == 0 ? BaseTag(token.substr(slash + 1)) : "");
    }
  }
  return Status::Ok();
}

bool Holds(const RoleInfo& role, const RoleScore& score) {
  return IsWeightRole(role) && score.queries > 0 && score.ratio >= kRoleRatio &&
         (role.positional || score.matched_ratio >= kMatchedRatio);
}

std::vector<std::string> RolesOf(const std::vector<RoleScore>& scores) {
  std::vector<size_t> held;
  int broad = -1;
  for (size_t r = 0; r < kRoles.size(); ++r) {
    if (!IsWeightRole(kRoles[r])) {
      broad = static_cast<int>(r);
      continue;
    }
    if (Holds(kRoles[r], scores[r])) held.push_back(r);
  }
  // Best first; a tie keeps kRoles' order.
  std::stable_sort(held.begin(), held.end(),
                   [&](size_t a, size_t b) { return scores[a].ratio > scores[b].ratio; });
  std::vector<std::string> out;
  for (size_t r : held) {
    if (scores[r].ratio * kRoleMargin >= scores[held[0]].ratio) out.push_back(kRoles[r].name);
  }
  if (out.empty() && broad >= 0 && scores[broad].queries > 0 &&
      scores[broad].score >= kBroadScore) {
    out.push_back("broad");
  }
  return out;
}

}  // namespace attention::train
