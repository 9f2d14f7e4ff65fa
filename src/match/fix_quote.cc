#include "match/fix_quote.h"

#include <algorithm>
#include <array>

namespace kedb::match {
namespace {

bool Splits(char c) {
  switch (c) {
    case ' ': case '\t': case '\n': case '\r': case '`': case '\'': case '"': case '(': case ')':
    case '[': case ']': case '{': case '}': case '<': case '>': case ',': case ';':
      return true;
    default:
      return false;
  }
}

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// "CMakeLists.txt", "package.json": named by texts that quote no fix.
bool IsFileName(std::string_view piece) {
  static constexpr std::array<std::string_view, 26> kExtensions = {
      "txt", "json", "yml",  "yaml", "py",   "js",  "ts",  "tsx", "jsx", "toml", "xml", "gradle", "properties",
      "conf", "cfg", "ini", "lock", "md", "log", "sh", "bash", "cmake", "cpp", "java", "whl", "gz"};
  const std::size_t dot = piece.rfind('.');
  if (dot == std::string_view::npos) return false;
  return std::find(kExtensions.begin(), kExtensions.end(), piece.substr(dot + 1)) != kExtensions.end();
}

// "huggingface.co", "registry.npmjs.org".
bool IsHostName(std::string_view piece) {
  static constexpr std::array<std::string_view, 7> kDomains = {"com", "org", "io", "co", "net", "dev", "ai"};
  const std::size_t dot = piece.rfind('.');
  if (dot == std::string_view::npos) return false;
  return std::find(kDomains.begin(), kDomains.end(), piece.substr(dot + 1)) != kDomains.end();
}

bool ReadsAsCode(std::string_view piece) {
  if (piece.size() < kMinFixFragment) return false;
  if (piece.find("://") != std::string_view::npos || IsFileName(piece) || IsHostName(piece)) return false;
  // A path names a place, not a fix; an npm scope ("@types/node") is a package.
  if (piece.find('/') != std::string_view::npos && piece.front() != '@') return false;
  if (piece.front() == '@' || piece.starts_with("--")) return true;
  if (piece.find_first_of("_=") != std::string_view::npos) return true;
  for (std::size_t i = 1; i + 1 < piece.size(); ++i) {
    if (piece[i] == '.' && IsAlnum(piece[i - 1]) && IsAlnum(piece[i + 1])) return true;
  }
  return false;
}

// Adds each code fragment of `prose` not in `out` yet.
void AddFragments(std::string_view prose, std::vector<std::string>* out) {
  std::size_t i = 0;
  while (i < prose.size()) {
    while (i < prose.size() && Splits(prose[i])) ++i;
    std::size_t end = i;
    while (end < prose.size() && !Splits(prose[end])) ++end;
    std::string_view piece = prose.substr(i, end - i);
    i = end;
    // Sentence punctuation around a fragment is not part of it.
    while (!piece.empty() && std::string_view(".:!?=").find(piece.back()) != std::string_view::npos) {
      piece.remove_suffix(1);
    }
    while (!piece.empty() && std::string_view(".:").find(piece.front()) != std::string_view::npos) {
      piece.remove_prefix(1);
    }
    if (ReadsAsCode(piece) && std::find(out->begin(), out->end(), piece) == out->end()) out->emplace_back(piece);
  }
}

}  // namespace

std::vector<std::string> FixFragments(const Record& record) {
  std::vector<std::string> fragments;
  for (const Workaround& w : record.workarounds) {
    AddFragments(w.action, &fragments);
    AddFragments(w.how, &fragments);
  }
  return fragments;
}

bool FixQuotes::Quotes(std::size_t index, const Record& record, std::string_view text) const {
  std::shared_ptr<const std::vector<std::string>> fragments;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kept_.find(index);
    if (it == kept_.end()) {
      if (kept_.size() >= kMaxKept) kept_.clear();
      it = kept_.emplace(index, std::make_shared<const std::vector<std::string>>(FixFragments(record))).first;
    }
    fragments = it->second;
  }
  for (const std::string& f : *fragments) {
    if (text.find(f) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace kedb::match
