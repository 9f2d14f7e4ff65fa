#include "mine/signatures.h"

#include <algorithm>
#include <map>
#include <set>

#include "logs/cluster.h"
#include "regex/pcre2_regex.h"
#include "util/trim.h"
#include "util/up_to_numbers.h"

namespace kedb::mine {
namespace {

constexpr std::size_t kMaxBranches = 6;
constexpr std::size_t kMaxFalseHits = 5;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
  return out;
}

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

}  // namespace

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
    if (posts[k].size() < 2 || util::Trim(l.text).size() < 12 || !SaysSomethingFailed(Lower(l.text))) continue;
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
    masked.push_back(MaskNumbers(util::Trim(e.text)));
    clusterer.Add(masked.back());
  }
  for (logs::Template& t : clusterer.Finish()) {
    SignatureCandidate c;
    c.masked = std::move(t.text);
    c.count = t.count;
    c.regex = std::move(t.regex);
    // The example as written: the first error line the template was made from.
    for (std::size_t i = 0; i < errors.size(); ++i) {
      if (masked[i] == t.example) {
        c.example = std::string(util::Trim(errors[i].text));
        c.post = errors[i].post;
        c.line = errors[i].line;
        break;
      }
    }
    s.candidates.push_back(std::move(c));
  }

  // Keep each branch that compiles, matches its own example and fires on
  // no ordinary line of the thread.
  std::vector<std::string> kept;
  for (SignatureCandidate& c : s.candidates) {
    if (kept.size() >= kMaxBranches) break;
    auto compiled = regex::CompilePython(c.regex);
    if (!compiled.ok() || !compiled->Search(c.example)) continue;
    bool fires = false;
    for (const ThreadLine& o : others) {
      if (!compiled->Search(o.text)) continue;
      fires = true;
      if (s.false_hits.size() < kMaxFalseHits) s.false_hits.push_back(o);
    }
    if (fires) continue;
    c.kept = true;
    kept.push_back(c.regex);
  }
  for (const std::string& r : kept) s.regex += (s.regex.empty() ? "" : "|") + (kept.size() > 1 ? "(?:" + r + ")" : r);
  if (!s.regex.empty()) {
    auto compiled = regex::CompilePython(s.regex);
    if (compiled.ok()) {
      for (const ThreadLine& e : errors) s.lines_matched += compiled->Search(e.text) ? 1 : 0;
    }
  }
  return s;
}

}  // namespace kedb::mine
