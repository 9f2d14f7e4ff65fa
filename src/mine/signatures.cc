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

// A phrase holds kMinPhraseWords to kMaxPhraseWords words of the message
// (and the values between them).
constexpr std::size_t kMinPhraseWords = 3;
constexpr std::size_t kMaxPhraseWords = 10;
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

// "requirements.txt", "index.js:12": a file the report names, which the
// next report names differently.
bool IsFileName(std::string_view w) {
  while (!w.empty() && std::string_view(".,;:)]'\"`").find(w.back()) != std::string_view::npos) w.remove_suffix(1);
  const std::size_t colon = w.rfind(':');  // "main.rs:12"
  if (colon != std::string_view::npos) w = w.substr(0, colon);
  const std::size_t dot = w.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  static constexpr std::string_view kExtensions[] = {"txt",  "py",   "js",  "ts",  "mjs", "cjs", "json", "yml", "yaml",
                                                     "toml", "lock", "cfg", "ini", "cpp", "cc",  "c",    "h",   "hpp",
                                                     "java", "go",   "rs",  "sh",  "so",  "dll", "exe",  "jar", "whl"};
  const std::string_view ext = w.substr(dot + 1);
  return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

bool IsUnit(std::string_view w) {
  while (!w.empty() && std::string_view(".,;:)]").find(w.back()) != std::string_view::npos) w.remove_suffix(1);
  static constexpr std::string_view kUnits[] = {"B",  "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "bytes",
                                                "ms", "s",  "sec", "seconds", "milliseconds", "minutes", "%"};
  return std::find(std::begin(kUnits), std::end(kUnits), w) != std::end(kUnits);
}

// A word that is a value: a URL, a path, hex, or a number standing alone
// ("18231,", "(32)", "=1.24.2", "16:47:03"); digits joined to letters
// (E0277, cu102) are part of a name.
bool IsValueWord(std::string_view w) {
  if (w.find("://") != std::string_view::npos) return true;
  // "OpType=ALLREDUCE,", "numpy~=1.24.2": a setting and its value.
  if (const std::size_t eq = w.find('='); eq != std::string_view::npos && eq > 0 && eq + 1 < w.size()) return true;
  // "-r", "--no-deps": an option given to the command that failed.
  if (w.size() > 1 && w[0] == '-' && (std::isalpha(static_cast<unsigned char>(w[1])) || w[1] == '-')) return true;
  if (IsFileName(w)) return true;
  if (std::count(w.begin(), w.end(), '/') + std::count(w.begin(), w.end(), '\\') >= 2) return true;
  if (w.starts_with("0x") || w.starts_with("0X")) return true;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(w[i]))) continue;
    if (i == 0 || !std::isalpha(static_cast<unsigned char>(w[i - 1]))) return true;
    while (i + 1 < w.size() && std::isdigit(static_cast<unsigned char>(w[i + 1]))) ++i;
  }
  return false;
}

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

std::string PhrasePattern(std::string_view line, bool quotes_are_values, bool skip_prefix);

}  // namespace

// Tries quoted words as values first: a quoted name is usually what
// differs between two reports (`Build` and `Cargo`); when that leaves too
// few words, the quoted text is what the error is about
// (NoSuchMethodError: 'void ...setIndentWithIndicator(boolean)'). A class
// or level in front of the message is left out when what follows still
// makes a phrase.
std::string PhrasePattern(std::string_view line) {
  for (bool quotes_are_values : {true, false}) {
    for (bool skip_prefix : {true, false}) {
      std::string p = PhrasePattern(line, quotes_are_values, skip_prefix);
      if (!p.empty()) return p;
    }
  }
  return "";
}

namespace {

// "RuntimeError:", "error:", "ERROR:", "torch.cuda.OutOfMemoryError:": a
// class or level in front of the message, which pasted reports often
// leave out ("The detected CUDA version ... mismatches ...").
bool IsMessagePrefix(std::string_view w) {
  if (w.size() < 2 || !w.ends_with(":")) return false;
  w.remove_suffix(1);
  bool letter = false;
  for (char c : w) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') return false;
    letter |= std::isalpha(static_cast<unsigned char>(c)) != 0;
  }
  return letter;
}

// "and", "in", "(line": a word that joins or places values; a word that
// names something ("module 'numpy' has no attribute") is not one.
bool IsJoiningWord(std::string_view w) {
  while (w.starts_with("(")) w.remove_prefix(1);
  while (!w.empty() && std::string_view(".,;:").find(w.back()) != std::string_view::npos) w.remove_suffix(1);
  static constexpr std::string_view kJoining[] = {"and", "or", "in", "at", "from", "for", "of", "to",
                                                  "with", "on", "by", "as", "line", "into"};
  const std::string lower = util::AsciiLower(w);
  return std::find(std::begin(kJoining), std::end(kJoining), lower) != std::end(kJoining);
}

// A word that ends a sentence: "memory." before "Tried".
bool EndsSentence(std::string_view w, std::string_view next) {
  return w.size() > 1 && (w.back() == '.' || w.back() == '!' || w.back() == '?') && !next.empty() &&
         std::isupper(static_cast<unsigned char>(next.front()));
}

std::string PhrasePattern(std::string_view line, bool quotes_are_values, bool skip_prefix) {
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
  // Each word's kind: 0 a word of the message, 1 a value standing alone, 2
  // part of a value spanning words (a quote with blanks in it).
  std::vector<int> kind(words.size(), 0);
  Quoting quoting;
  for (std::size_t i = first; i < words.size(); ++i) {
    const bool was_open = quoting.open;
    const bool quoted = quoting.Quoted(words[i]);
    if (IsValueWord(words[i]) || (quotes_are_values && quoted)) kind[i] = 1;
    if (quotes_are_values && quoted && (was_open || quoting.open)) kind[i] = 2;
    // "812.00 MiB": the unit goes with its number.
    if (i > first && kind[i - 1] == 1 && IsUnit(words[i])) kind[i] = 1;
  }
  if (skip_prefix && first < words.size() && IsMessagePrefix(words[first])) ++first;
  // Runs of message words that a lone value may interrupt (it becomes \S+),
  // within one sentence. The run with the most words of the message is the
  // phrase, the first of equals.
  std::size_t best = 0, best_end = 0, best_literal = 0;
  for (std::size_t i = first; i < words.size();) {
    if (kind[i] != 0) {
      ++i;
      continue;
    }
    std::size_t end = i, literal = 0;
    for (std::size_t j = i; j < words.size() && literal < kMaxPhraseWords; ++j) {
      if (kind[j] == 2 || (kind[j] == 1 && (j + 1 == words.size() || kind[j + 1] != 0))) break;
      literal += kind[j] == 0;
      end = j + 1;
      if (kind[j] == 0 && EndsSentence(words[j], j + 1 < words.size() ? words[j + 1] : "")) break;
    }
    while (end > i && kind[end - 1] != 0) --end;  // a run ends on a word
    const std::size_t next = std::max(end, i + 1);
    // A lone word between values at either end ("(line 3) and numpy~=1.24
    // because ...", "... Can't resolve 'path' in") joins values rather
    // than saying what the error is.
    std::size_t b = i;
    while (literal > kMinPhraseWords && b + 2 < end && kind[b + 1] != 0 && IsJoiningWord(words[b])) {
      b += 2;
      --literal;
    }
    while (literal > kMinPhraseWords && end >= b + 3 && kind[end - 2] != 0 && IsJoiningWord(words[end - 1])) {
      end -= 2;
      --literal;
    }
    if (literal > best_literal) {
      best = b;
      best_end = end;
      best_literal = literal;
    }
    i = next;
  }
  if (best_literal < kMinPhraseWords) return "";
  std::string out;
  for (std::size_t k = best; k < best_end; ++k) {
    if (!out.empty()) out += R"(\s+)";
    if (kind[k] != 0) {
      out += R"(\S+)";
      continue;
    }
    std::string_view word = words[k];
    // The run's last word without the sentence's punctuation: another
    // report may go on where this one stopped.
    if (k + 1 == best_end) {
      while (word.size() > 1 && std::string_view(".,;:").find(word.back()) != std::string_view::npos) word.remove_suffix(1);
    }
    out += EscapedLiteral(word);
  }
  return out;
}

// Whether `line` is one of `errors` quoted again, whole or in part ("The
// detected CUDA version ..." without its "RuntimeError: "), or a sentence
// that quotes one whole: the pattern firing there is right.
bool IsCopyOf(std::string_view line, const std::vector<std::string_view>& errors) {
  const std::string_view l = StripBackticks(line);
  if (l.size() < 20) return false;
  return std::any_of(errors.begin(), errors.end(), [&](std::string_view e) {
    e = StripBackticks(e);
    return util::Contains(e, l) || util::Contains(l, e);
  });
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
        if (!compiled->Search(o.text) || IsCopyOf(o.text, own)) continue;
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
