#include "mine/post_parts.h"

#include <algorithm>
#include <array>

#include "util/strings.h"

namespace kedb::mine {
namespace {

using util::Trim;

bool IsPrompt(std::string_view t) {
  return t.starts_with(">>> ") || t.starts_with("$ ") || t.starts_with("In [") || t.starts_with("PS ") ||
         t.starts_with("C:\\>");
}

// A line of someone's own words rather than a program's output: it starts
// with a letter and has five or more words, mostly letters. Program output
// that reads like this (a log message) is rare after a prompt.
bool LooksLikeProse(std::string_view t) {
  if (t.empty() || !((t[0] >= 'A' && t[0] <= 'Z') || (t[0] >= 'a' && t[0] <= 'z'))) return false;
  std::size_t words = 1, letters = 0;
  for (char c : t) {
    words += c == ' ';
    letters += (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == ' ';
  }
  return words >= 5 && letters * 10 >= t.size() * 8;
}

// A line of source code given without a fence: an import, a definition,
// an assignment, a call on its own, or a line a brace or semicolon ends.
bool LooksLikeCode(std::string_view t) {
  for (std::string_view p : {"import ", "from ", "def ", "class ", "return ", "print(", "#include", "const ",
                             "let ", "var ", "fn ", "func ", "use "}) {
    if (t.starts_with(p) && !LooksLikeProse(t)) return true;
  }
  if (t.ends_with("{") || t.ends_with("}") || t.ends_with(";") || t.ends_with("):")) return true;
  // "x = torch.ones(8, 3)", "bn.running_mean.shape": no blank before '=' or
  // the first '(' but the name itself.
  std::size_t name = 0;
  while (name < t.size() && (std::isalnum(static_cast<unsigned char>(t[name])) || t[name] == '_' || t[name] == '.' ||
                             t[name] == '[' || t[name] == ']')) {
    ++name;
  }
  if (name == 0 || name == t.size()) return false;
  std::string_view rest = t.substr(name);
  return rest.starts_with(" = ") || rest.starts_with("=") || (rest.starts_with("(") && t.ends_with(")"));
}

// "Architecture: x86_64", "Version : 3.7.4": a short key, a colon, a value.
bool IsKeyValue(std::string_view t) {
  const std::size_t colon = t.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 40 || colon + 1 >= t.size()) return false;
  std::string_view key = Trim(t.substr(0, colon));
  std::string_view value = Trim(t.substr(colon + 1));
  if (key.empty() || value.empty() || key.find_first_of(".!?,") != std::string_view::npos) return false;
  return std::isalpha(static_cast<unsigned char>(key[0])) || key[0] == '(' || key[0] == '-';
}

bool IsSectionRule(std::string_view t) { return t.size() >= 6 && t.starts_with("---") && t.ends_with("---"); }

// Lines of a report a tool printed (lscpu, a diagnose script, env dumps):
// runs holding three or more key-value lines, with the section rules and
// wrapped lines between them.
std::vector<bool> DumpLines(const std::vector<std::string_view>& lines) {
  std::vector<bool> dump(lines.size(), false);
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t end = i, pairs = 0, first = lines.size(), last = 0;
    while (end < lines.size()) {
      std::string_view t = Trim(lines[end]);
      const bool kv = IsKeyValue(t) || IsSectionRule(t);
      if (!kv && (t.empty() || LooksLikeProse(t))) break;
      if (kv) {
        ++pairs;
        first = std::min(first, end);
        last = end;
      }
      ++end;
    }
    // Wrapped lines between the pairs belong to the report; lines before
    // the first pair or after the last do not.
    if (pairs >= 3) std::fill(dump.begin() + static_cast<long>(first), dump.begin() + static_cast<long>(last) + 1, true);
    i = std::max(end, i + 1);
  }
  return dump;
}

// Markdown markup that says nothing about the words: list bullets, bold,
// a heading's hashes.
std::string Unmarked(std::string_view t) {
  while (t.starts_with("#")) t.remove_prefix(1);
  for (std::string_view bullet : {"- ", "* ", "+ "}) {
    if (t.starts_with(bullet)) t.remove_prefix(bullet.size());
  }
  std::string out;
  out.reserve(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '*' && i + 1 < t.size() && t[i + 1] == '*') {
      ++i;
      continue;
    }
    // "[the default](https://...)" reads as "the default" (the address is
    // kept among the post's links).
    if (t[i] == ']' && i + 1 < t.size() && t[i + 1] == '(' && out.find('[') != std::string::npos) {
      const std::size_t close = t.find(')', i + 2);
      if (close != std::string_view::npos && t.substr(i + 2, 4) == "http") {
        out.erase(out.rfind('['), 1);
        i = close;
        continue;
      }
    }
    out.push_back(t[i]);
  }
  return std::string(Trim(out));
}

void AddSentences(std::string_view line, std::size_t line_no, std::vector<Sentence>* out) {
  const std::string text = Unmarked(Trim(line));
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size() ||
                     ((text[i] == '.' || text[i] == '?' || text[i] == '!') && i + 1 < text.size() &&
                      text[i + 1] == ' ' && i > start + 1 && text[i - 1] != '.' &&
                      // "e.g. x", "i.e. y", "vs. z" are not sentence ends
                      !(i >= 3 && (text.compare(i - 3, 3, "e.g") == 0 || text.compare(i - 3, 3, "i.e") == 0)) &&
                      !(i >= 2 && text.compare(i - 2, 2, "vs") == 0));
    if (!end) continue;
    std::string_view s = Trim(std::string_view(text).substr(start, i - start + (i < text.size() ? 1 : 0)));
    if (!s.empty()) out->push_back({std::string(s), line_no});
    start = i + 1;
  }
}

void AddLinks(std::string_view line, std::size_t line_no, std::vector<Link>* out) {
  for (std::size_t at = 0; (at = line.find("http", at)) != std::string_view::npos;) {
    std::string_view rest = line.substr(at);
    if (!rest.starts_with("https://") && !rest.starts_with("http://")) {
      at += 4;
      continue;
    }
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t' && rest[end] != '"' && rest[end] != '<' &&
           rest[end] != '>' && rest[end] != '`' && rest[end] != ']') {
      ++end;
    }
    std::string_view url = rest.substr(0, end);
    while (!url.empty() && (url.back() == '.' || url.back() == ',' || url.back() == ')' || url.back() == ';' ||
                            url.back() == ':' || url.back() == '\'')) {
      url.remove_suffix(1);
    }
    if (url.size() > 10) {
      const bool seen = std::any_of(out->begin(), out->end(), [&](const Link& l) { return l.url == url; });
      if (!seen) out->push_back({std::string(url), line_no});
    }
    at += std::max<std::size_t>(end, 1);
  }
}

}  // namespace

bool IsCommandLine(std::string_view line) {
  std::string_view t = Trim(line);
  if (t.starts_with("$ ")) t.remove_prefix(2);
  if (t.starts_with("sudo ")) t.remove_prefix(5);
  static constexpr std::array<std::string_view, 24> kTools = {
      "pip ",   "pip3 ",  "python -m ", "python3 -m ", "conda ",   "curl ",  "wget ",   "docker ",
      "kubectl ", "helm ", "git ",     "npm ",       "npx ",       "yarn ",   "pnpm ",  "cargo ",  "rustup ",
      "apt ",   "apt-get ", "brew ",    "export ",    "mvn ",       "gradle ", "go "};
  return std::any_of(kTools.begin(), kTools.end(), [&](std::string_view tool) { return t.starts_with(tool); });
}

std::vector<bool> FencedLines(const std::vector<std::string_view>& lines) {
  std::vector<bool> fenced(lines.size(), false);
  auto fence = [&](std::size_t i) {
    std::string_view t = Trim(lines[i]);
    if (!t.starts_with("```") && !t.starts_with("~~~")) return false;
    // "```fatal: the remote end hung up```" is code inline, not a fence.
    return t.substr(3).find(t.substr(0, 3)) == std::string_view::npos;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!fence(i)) continue;
    std::size_t close = i + 1;
    while (close < lines.size() && !fence(close)) ++close;
    // Copied threads often lose a block's closing fence: an opening fence
    // with no close is only a line.
    if (close == lines.size()) continue;
    for (std::size_t k = i; k <= close; ++k) fenced[k] = true;
    i = close;
  }
  return fenced;
}

PostParts SplitPost(std::string_view body) {
  PostParts parts;
  std::vector<std::string_view> lines = util::SplitLines(body);
  parts.line_kinds.assign(lines.size(), PartKind::kProse);
  const std::vector<bool> fenced = FencedLines(lines);
  const std::vector<bool> dump = DumpLines(lines);
  CodeSnippet* open = nullptr;  // the snippet the previous line went to
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t line_no = i + 1;
    std::string_view t = Trim(lines[i]);
    AddLinks(lines[i], line_no, &parts.links);
    if (fenced[i] && (t.starts_with("```") || t.starts_with("~~~"))) {
      parts.line_kinds[i] = PartKind::kCode;
      const bool opening = i + 1 < lines.size() && fenced[i + 1] && (i == 0 || !fenced[i - 1] || !open);
      if (opening) {
        parts.code.push_back({"", std::string(Trim(t.substr(3))), line_no + 1});
        open = &parts.code.back();
      } else {
        open = nullptr;
      }
      continue;
    }
    if (t.starts_with(">") && !t.starts_with(">>>") && !fenced[i]) {
      parts.line_kinds[i] = PartKind::kQuote;
      open = nullptr;
      continue;
    }
    if (t.empty() && !fenced[i]) {
      open = nullptr;
      continue;
    }
    const bool prompt = IsPrompt(t);
    bool code = fenced[i] || dump[i] || prompt || LooksLikeCode(t);
    // A prompt's output runs on to a blank line or someone's own words.
    if (!code && open && open->language.empty() && !LooksLikeProse(t)) code = true;
    // A command given in prose is a snippet of its own.
    const bool command = !code && IsCommandLine(t);
    if (command) {
      code = true;
      open = nullptr;
    }
    if (!code) {
      open = nullptr;
      AddSentences(lines[i], line_no, &parts.sentences);
      continue;
    }
    parts.line_kinds[i] = PartKind::kCode;
    if (!open) {
      parts.code.push_back({"", "", line_no});
      open = &parts.code.back();
    }
    (open->text += lines[i]) += '\n';
    if (command) open = nullptr;
  }
  return parts;
}

}  // namespace kedb::mine
