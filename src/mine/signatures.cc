#include "mine/signatures.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "logs/cluster.h"
#include "logs/line_kinds.h"
#include "regex/pcre2_regex.h"
#include "util/strings.h"
#include "util/up_to_numbers.h"

namespace kedb::mine {
namespace {

constexpr std::size_t kMaxPhraseWords = 14;
constexpr std::size_t kMaxFalseHits = 5;


bool HasWord(const std::string& lower, std::string_view word) {
  for (std::size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; };
    const bool left = at == 0 || !letter(lower[at - 1]);
    const bool right = at + word.size() >= lower.size() || !letter(lower[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

// A line of output that reports a wrong outcome.
bool SaysSomethingFailed(const std::string& lower) {
  for (std::string_view w : {"false", "nan", "error", "failed", "fail", "wrong", "mismatch", "exception"}) {
    if (HasWord(lower, w)) return true;
  }
  return false;
}

// Numbers that differ from one report to the next become <NUM> (which the
// clusterer's pattern reads as a number): decimals and integers of four or
// more digits, standing alone. Short integers stay, as they are often part
// of what the error is ("exit code 137", "HTTP 403", "GPU 0"), and so do
// digits inside a name or code (E0382, cu102, v2.0.0b1).
std::string MaskNumbers(std::string_view line) {
  std::string out;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t i = 0; i < line.size();) {
    const bool starts = std::isdigit(static_cast<unsigned char>(line[i])) && (i == 0 || !alnum(line[i - 1]));
    if (!starts) {
      out += line[i++];
      continue;
    }
    std::size_t end = i, digits = 0;
    bool decimal = false;
    while (end < line.size()) {
      if (std::isdigit(static_cast<unsigned char>(line[end]))) {
        ++digits;
      } else if ((line[end] == '.' || line[end] == ',') && end + 1 < line.size() &&
                 std::isdigit(static_cast<unsigned char>(line[end + 1]))) {
        decimal |= line[end] == '.';
      } else {
        break;
      }
      ++end;
    }
    const bool joined = end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]));
    if (!joined && (decimal || digits >= 4)) {
      out += "<NUM>";
    } else {
      out.append(line.substr(i, end - i));
    }
    i = end;
  }
  return out;
}

// A line without the backticks that quote it inline: "```fatal: x```".
std::string_view StripBackticks(std::string_view line) {
  line = util::Trim(line);
  while (line.starts_with("`")) line.remove_prefix(1);
  while (line.ends_with("`")) line.remove_suffix(1);
  return util::Trim(line);
}

// A word that is a value: a URL, a path, hex, or a number standing alone
// ("18231,", "(32)", "=1.24.2", "16:47:03"); digits joined to letters
// (E0277, cu102) are part of a name.
bool IsValueWord(std::string_view w) {
  if (w.find("://") != std::string_view::npos) return true;
  if (std::count(w.begin(), w.end(), '/') + std::count(w.begin(), w.end(), '\\') >= 2) return true;
  if (w.starts_with("0x") || w.starts_with("0X")) return true;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(w[i]))) continue;
    if (i == 0 || !std::isalpha(static_cast<unsigned char>(w[i - 1]))) return true;
    while (i + 1 < w.size() && std::isdigit(static_cast<unsigned char>(w[i + 1]))) ++i;
  }
  return false;
}

// A line's pattern: its longest run of words that are not values (three
// to kMaxPhraseWords of them), escaped and joined by \s+, after any log
// prefix in brackets ("[E1119 16:47:03.51 ProcessGroupNCCL.cpp:616] [Rank
// 1] ..."). "" when the line has no such run. Reports of one error share
// their wording, not their numbers, paths or positions, and the run that
// is left says what the error is.
// A word inside quotes: 'x', "y", `z`, or a quote spanning words.
struct Quoting {
  bool open = false;
  char mark = 0;
  // Whether `w` is (part of) a quoted text; updates the state.
  bool Quoted(std::string_view w) {
    if (open) {
      if (w.find(mark) != std::string_view::npos) open = false;
      return true;
    }
    for (char q : {'\'', '"', '`'}) {
      if (!w.empty() && (w.front() == q || (w.size() > 1 && w.front() == '(' && w[1] == q))) {
        const std::size_t close = w.find(q, w.front() == q ? 1 : 2);
        if (close == std::string_view::npos) {
          open = true;
          mark = q;
        }
        return true;
      }
    }
    return false;
  }
};

std::string PhrasePattern(std::string_view line, bool quotes_are_values);

}  // namespace

// Tries quoted words as values first: a quoted name is usually what
// differs between two reports (`Build` and `Cargo`); when that leaves too
// few words, the quoted text is what the error is about
// (NoSuchMethodError: 'void ...setIndentWithIndicator(boolean)').
std::string PhrasePattern(std::string_view line) {
  std::string p = PhrasePattern(line, true);
  return p.empty() ? PhrasePattern(line, false) : p;
}

namespace {

std::string PhrasePattern(std::string_view line, bool quotes_are_values) {
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t b = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > b) words.push_back(line.substr(b, i - b));
  }
  std::size_t first = 0;
  while (first < words.size() && words[first].starts_with("[")) {  // skip "[...]" groups
    while (first < words.size() && words[first].find(']') == std::string_view::npos) ++first;
    ++first;
  }
  std::vector<bool> value(words.size(), false);
  Quoting quoting;
  for (std::size_t i = first; i < words.size(); ++i) {
    const bool quoted = quoting.Quoted(words[i]);
    value[i] = IsValueWord(words[i]) || (quotes_are_values && quoted);
  }
  std::size_t best = 0, best_len = 0;
  for (std::size_t i = first; i < words.size();) {
    if (value[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < words.size() && !value[j]) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  if (best_len < 3) return "";
  std::string out;
  const std::size_t end = best + std::min(best_len, kMaxPhraseWords);
  for (std::size_t k = best; k < end; ++k) {
    if (!out.empty()) out += R"(\s+)";
    std::string_view word = words[k];
    // The run's last word without the sentence's punctuation: another
    // report may go on where this one stopped.
    if (k + 1 == end) {
      while (word.size() > 1 && std::string_view(".,;:").find(word.back()) != std::string_view::npos) word.remove_suffix(1);
    }
    out += EscapedLiteral(word);
  }
  return out;
}

}  // namespace

std::string EscapedLiteral(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (std::string_view(R"(\^$.|?*+()[]{}-#)").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::vector<ThreadLine> FailureLines(const std::vector<ThreadLine>& output_lines, std::size_t limit) {
  std::vector<ThreadLine> out;
  for (const ThreadLine& l : output_lines) {
    if (out.size() >= limit) break;
    const std::string_view t = util::Trim(l.text);
    // A comment in a snippet ("# which pulls in ...") or an exit status
    // reports nothing of its own.
    if (t.starts_with("#") || t.starts_with("//") || logs::IsWrapperLine(t)) continue;
    if (t.size() < 12 || !logs::StatesFailure(t) || logs::IsWarningLine(t)) continue;
    ThreadLine f = l;
    f.text = std::string(StripBackticks(l.text));
    f.strength = 0;  // below any error block the scan found
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<ThreadLine> SymptomLines(const std::vector<ThreadLine>& output_lines, std::size_t limit) {
  // Posts each line (up to numbers) occurs in.
  std::map<std::string, std::set<std::size_t>> posts;
  auto key = [](std::string_view text) {
    std::string k;
    util::AppendUpToNumbers(util::Trim(text), &k);
    return k;
  };
  for (const ThreadLine& l : output_lines) posts[key(l.text)].insert(l.post);
  std::vector<ThreadLine> out;
  std::set<std::string> taken;
  for (const ThreadLine& l : output_lines) {
    if (out.size() >= limit) break;
    const std::string k = key(l.text);
    if (posts[k].size() < 2 || util::Trim(l.text).size() < 12 || !SaysSomethingFailed(util::AsciiLower(l.text))) continue;
    if (taken.insert(k).second) out.push_back(l);
  }
  return out;
}

Signatures BuildSignatures(const std::vector<ThreadLine>& errors, const std::vector<ThreadLine>& others) {
  Signatures s;
  s.lines = errors.size();
  logs::Clusterer clusterer;
  std::vector<std::string> masked;
  for (const ThreadLine& e : errors) {
    masked.push_back(MaskNumbers(StripBackticks(e.text)));
    clusterer.Add(masked.back());
  }
  std::vector<logs::Template> templates = clusterer.Finish();
  // The order the thread's error is looked for in (signatures.h).
  auto rank = [&](const logs::Template& t) {
    std::size_t first = errors.size();
    int strength = 0;
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (std::find(t.members.begin(), t.members.end(), masked[i]) == t.members.end()) continue;
      first = std::min(first, i);
      strength = std::max(strength, errors[i].strength);
    }
    const bool opening = first < errors.size() && errors[first].post == 0;
    // A line with no run of words to match on ("ERROR in ./src/x.ts 26:26-41")
    // names a place, not the error: the line after it usually does.
    const bool phrase = first < errors.size() && !PhrasePattern(StripBackticks(errors[first].text)).empty();
    return std::make_tuple(!opening, !phrase, -strength, -static_cast<long>(t.count), first);
  };
  // Ranked once each, then ordered (the rank scans every error line).
  std::vector<std::pair<decltype(rank(templates[0])), std::size_t>> order;
  for (std::size_t i = 0; i < templates.size(); ++i) order.emplace_back(rank(templates[i]), i);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<logs::Template> ranked;
  for (const auto& [key, i] : order) ranked.push_back(std::move(templates[i]));
  templates = std::move(ranked);
  for (logs::Template& t : templates) {
    SignatureCandidate c;
    c.masked = t.text;
    c.count = t.count;
    c.regex = t.regex;
    // The example as written: the first error line the template was made from.
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (masked[i] == t.example) {
        c.example = std::string(StripBackticks(errors[i].text));
        c.post = errors[i].post;
        c.line = errors[i].line;
        break;
      }
    }
    s.candidates.push_back(std::move(c));
  }

  // The pattern: the first candidate, most frequent first, whose phrase (or
  // failing that, whose template) matches the lines it stands for and no
  // ordinary line of the thread.
  for (logs::Template& t : templates) {
    SignatureCandidate& c = s.candidates[static_cast<std::size_t>(&t - templates.data())];
    std::vector<std::string_view> own;
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (std::find(t.members.begin(), t.members.end(), masked[i]) != t.members.end()) own.push_back(errors[i].text);
    }
    for (const std::string& pattern : {PhrasePattern(c.example), c.regex}) {
      if (pattern.empty()) continue;
      auto compiled = regex::CompilePython(pattern);
      if (!compiled.ok()) continue;
      const bool covers = std::all_of(own.begin(), own.end(), [&](std::string_view l) { return compiled->Search(l); });
      if (!covers) continue;
      bool fires = false;
      for (const ThreadLine& o : others) {
        if (!compiled->Search(o.text)) continue;
        fires = true;
        if (s.false_hits.size() < kMaxFalseHits) s.false_hits.push_back(o);
      }
      if (fires) continue;
      c.kept = true;
      c.regex = pattern;
      s.regex = pattern;
      break;
    }
    if (!s.regex.empty()) break;
  }
  if (!s.regex.empty()) {
    auto compiled = regex::CompilePython(s.regex);
    if (compiled.ok()) {
      for (const ThreadLine& e : errors) s.lines_matched += compiled->Search(e.text) ? 1 : 0;
    }
  }
  return s;
}

}  // namespace kedb::mine
