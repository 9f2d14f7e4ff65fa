#include "regex/pcre2_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <memory>

namespace kedb::regex {
namespace {

// Per-thread matching scratch. A JIT stack and a match context must not be
// shared by concurrent matches, and allocating them per call would dominate
// the cost of matching short log lines.
struct Scratch {
  pcre2_match_context* context = nullptr;
  pcre2_jit_stack* jit_stack = nullptr;
  pcre2_match_data* data = nullptr;  // grows to the largest pair count seen
  std::uint32_t pairs = 0;

  Scratch() {
    context = pcre2_match_context_create(nullptr);
    // The JIT's own stack: 32 KiB to start, up to 1 MiB; exhausting it ends
    // the search with PCRE2_ERROR_JIT_STACKLIMIT, i.e. "no match".
    jit_stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, nullptr);
    if (context != nullptr && jit_stack != nullptr) {
      pcre2_jit_stack_assign(context, nullptr, jit_stack);
    }
  }
  ~Scratch() {
    pcre2_match_data_free(data);
    pcre2_jit_stack_free(jit_stack);
    pcre2_match_context_free(context);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  pcre2_match_data* Data(std::uint32_t want) {
    if (data == nullptr || pairs < want) {
      pcre2_match_data_free(data);
      data = pcre2_match_data_create(want, nullptr);
      pairs = data == nullptr ? 0 : want;
    }
    return data;
  }
};

Scratch& ThreadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

std::string ErrorText(int code) {
  PCRE2_UCHAR buffer[256];
  const int n = pcre2_get_error_message(code, buffer, sizeof buffer);
  return n < 0 ? "PCRE2 error " + std::to_string(code)
               : std::string(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(n));
}

// Whether `pattern` has an atomic group or a possessive quantifier. PCRE2
// 10.42's JIT gets some of those wrong (e.g. /(?>.*|)b/ "matches" "abc";
// upstream issues #324, #347, fixed in 10.43), so they run interpreted.
// Errs on the side of "yes": an escaped "*" followed by "+" counts too.
bool HasAtomicOrPossessive(std::string_view pattern) {
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') ++i;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') ++i;  // leading ] is literal
    } else if (pattern.substr(i, 3) == "(?>") {
      return true;
    } else if ((c == '*' || c == '+' || c == '?' || c == '}') && i + 1 < pattern.size() &&
               pattern[i + 1] == '+') {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<Pcre2Regex> Pcre2Regex::Compile(std::string_view pcre2_pattern, const Pcre2Options& options) {
  std::uint32_t flags = PCRE2_ALT_CIRCUMFLEX | PCRE2_NEVER_BACKSLASH_C;
  if (options.utf) flags |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
  if (options.caseless) flags |= PCRE2_CASELESS;

  std::unique_ptr<pcre2_compile_context, decltype(&pcre2_compile_context_free)> context(
      pcre2_compile_context_create(nullptr), &pcre2_compile_context_free);
  if (context == nullptr) return Status::Internal("out of memory");
  pcre2_set_newline(context.get(), PCRE2_NEWLINE_LF);  // Python's only newline

  int code = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* compiled =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pcre2_pattern.data()), pcre2_pattern.size(),
                    flags, &code, &offset, context.get());
  if (compiled == nullptr) return Status::InvalidArgument(ErrorText(code)).At(offset);

  Pcre2Regex regex;
  regex.code_ = compiled;
  regex.options_ = options;
  regex.pattern_ = std::string(pcre2_pattern);
  regex.may_jit_ = JitAvailable() && !HasAtomicOrPossessive(pcre2_pattern);
  if (regex.may_jit_ && options.jit_after == 0) {
    if (pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE) == 0) regex.jit_code_ = compiled;
    regex.may_jit_ = false;  // done, or refused for good
  }

  std::uint32_t captures = 0, names = 0, entry_size = 0;
  PCRE2_SPTR table = nullptr;
  pcre2_pattern_info(compiled, PCRE2_INFO_CAPTURECOUNT, &captures);
  pcre2_pattern_info(compiled, PCRE2_INFO_NAMECOUNT, &names);
  pcre2_pattern_info(compiled, PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
  pcre2_pattern_info(compiled, PCRE2_INFO_NAMETABLE, &table);
  regex.group_names_.assign(captures + 1, std::string());
  for (std::uint32_t i = 0; i < names; ++i) {
    // Each entry: the group number in two bytes, then the name, NUL-ended.
    const PCRE2_SPTR entry = table + static_cast<std::size_t>(i) * entry_size;
    const std::size_t group = (static_cast<std::size_t>(entry[0]) << 8) | entry[1];
    if (group < regex.group_names_.size()) {
      regex.group_names_[group] = reinterpret_cast<const char*>(entry + 2);
    }
  }
  return regex;
}

// Moves happen before a regex is shared (it is built, then kept), so they
// need not be atomic as a whole.
Pcre2Regex::Pcre2Regex(Pcre2Regex&& other) noexcept { *this = std::move(other); }

Pcre2Regex& Pcre2Regex::operator=(Pcre2Regex&& other) noexcept {
  if (this != &other) {
    FreeCode();
    code_ = std::exchange(other.code_, nullptr);
    jit_code_ = other.jit_code_.exchange(nullptr);
    searches_ = other.searches_.load();
    may_jit_ = other.may_jit_;
    options_ = other.options_;
    pattern_ = std::move(other.pattern_);
    group_names_ = std::move(other.group_names_);
  }
  return *this;
}

Pcre2Regex::~Pcre2Regex() { FreeCode(); }

void Pcre2Regex::FreeCode() {
  pcre2_code* jit = jit_code_.exchange(nullptr);
  if (jit != code_) pcre2_code_free(jit);  // a copy; compiled at once, it is code_ itself
  pcre2_code_free(code_);
  code_ = nullptr;
}

const pcre2_code* Pcre2Regex::CodeForSearch() const {
  if (const pcre2_code* jit = jit_code_.load(std::memory_order_acquire)) return jit;
  if (!may_jit_ || searches_.fetch_add(1, std::memory_order_relaxed) + 1 != options_.jit_after) return code_;
  // This search is the one that compiles: on a copy, as others may be
  // searching with code_ now.
  pcre2_code* copy = pcre2_code_copy(code_);
  if (copy == nullptr) return code_;
  if (pcre2_jit_compile(copy, PCRE2_JIT_COMPLETE) != 0) {
    pcre2_code_free(copy);
    return code_;
  }
  jit_code_.store(copy, std::memory_order_release);
  return copy;
}

bool Pcre2Regex::JitAvailable() {
  std::uint32_t jit = 0;
  return pcre2_config(PCRE2_CONFIG_JIT, &jit) >= 0 && jit == 1;
}

int Pcre2Regex::Match(std::string_view text, std::size_t pairs, std::vector<Span>* spans,
                      std::vector<bool>* set) const {
  Scratch& scratch = ThreadScratch();
  pcre2_match_data* data = scratch.Data(static_cast<std::uint32_t>(pairs));
  if (code_ == nullptr || data == nullptr || scratch.context == nullptr) {
    return PCRE2_ERROR_NOMEMORY;
  }
  pcre2_set_match_limit(scratch.context, options_.match_limit);
  pcre2_set_depth_limit(scratch.context, options_.depth_limit);
  pcre2_set_heap_limit(scratch.context, options_.heap_limit_kib);
  static const char kEmpty[1] = {0};  // PCRE2 10.42 rejects a null subject
  const char* subject = text.data() == nullptr ? kEmpty : text.data();
  const int rc = pcre2_match(CodeForSearch(), reinterpret_cast<PCRE2_SPTR>(subject), text.size(), 0, 0,
                             data, scratch.context);
  if (rc < 0) return rc;  // no match, a limit, or a bad argument
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data);
  spans->clear();
  set->clear();
  for (std::size_t i = 0; i < pairs; ++i) {
    const bool matched = ovector[2 * i] != PCRE2_UNSET;
    spans->emplace_back(matched ? ovector[2 * i] : 0, matched ? ovector[2 * i + 1] : 0);
    set->push_back(matched);
  }
  return rc;
}

std::optional<Span> Pcre2Regex::Find(std::string_view text) const {
  thread_local std::vector<Span> spans;
  thread_local std::vector<bool> set;
  if (Match(text, 1, &spans, &set) < 0) return std::nullopt;
  return spans[0];
}

std::optional<std::vector<std::optional<Span>>> Pcre2Regex::Captures(
    std::string_view text) const {
  std::vector<Span> spans;
  std::vector<bool> set;
  if (Match(text, capture_count() + 1, &spans, &set) < 0) return std::nullopt;
  std::vector<std::optional<Span>> groups;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    groups.push_back(set[i] ? std::optional<Span>(spans[i]) : std::nullopt);
  }
  return groups;
}

Result<Pcre2Regex> CompilePython(std::string_view python_pattern, const Pcre2Options& options) {
  auto parsed = ParsePythonRegex(python_pattern);
  if (!parsed.ok()) return parsed.status();
  auto compiled = Pcre2Regex::Compile(parsed->pcre2, options);
  if (!compiled.ok()) return Status::InvalidArgument("PCRE2: " + compiled.status().message()).At(0);
  return compiled;
}

}  // namespace kedb::regex
