#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "render/evidence_render.h"
#include "render/render.h"
#include "store/posterior.h"
#include "util/strings.h"

namespace kedb {
namespace {

// Labels in both languages.
struct Labels {
  const char* root_cause;
  const char* workarounds;
  const char* dead_ends;
  const char* applies_to;
  const char* versions;
  const char* os;
  const char* related;
  const char* leads_to;
  const char* preceded_by;
  const char* confused_with;
  const char* no_action;
  const char* how;
  const char* when;
  const char* tradeoff;
  const char* error_code;
  const char* docs;
  const char* verdict;
  const char* resolvable;
  const char* fix_rate;
  const char* confidence;
  const char* tier;
  const char* evidence;
  const char* first_seen;
  const char* last_confirmed;
  const char* source;
  const char* reported;
  const char* worked;
  const char* failed;
  const char* partial;
  const char* curated;
  const char* likely_dead_end;
  const char* sources;
  const char* occurrences;  // "{} real occurrence(s), {} counterexample(s)"
  const char* checked;
};

constexpr Labels kEn = {"Root cause", "Workarounds (by success rate)", "Dead ends (by fail rate)",
                        "Applies to", "versions", "os", "Related errors", "leads to", "preceded by",
                        "often confused with", "(no action recorded)", "how", "when", "cost",
                        "Error code", "Docs", "Verdict", "resolvable", "fix success", "confidence",
                        "tier", "evidence", "first seen", "last confirmed", "Source",
                        "reported", "worked", "failed", "partial", "curated",
                        "keeps failing when tried: likely a dead end", "Sources",
                        "{} real occurrence(s) on record, {} counterexample(s)", "checked"};
constexpr Labels kZh = {"根本原因", "解决方法（按成功率）", "无效尝试（按失败率）", "适用范围", "版本",
                        "操作系统", "相关错误", "可能导致", "通常前置", "易混淆", "（未记录操作）", "做法",
                        "条件", "代价", "错误代码", "文档", "结论", "可解决", "修复成功率", "置信度",
                        "验证级别", "证据数", "首次出现", "最近确认", "来源",
                        "反馈", "有效", "无效", "部分有效", "原始", "反馈中屡次无效：可能是无效尝试", "资料来源",
                        "已收录 {} 条真实出现，{} 条反例", "核查"};

// Word-wraps `text` to `width` columns (counting UTF-8 code points), each
// line prefixed by `indent`. CJK text has no spaces; it is broken anywhere.
std::string Wrap(const std::string& text, std::size_t indent, std::size_t width = 92) {
  std::string pad(indent, ' '), out = pad, word;
  std::size_t col = indent, word_cols = 0;
  auto flush_word = [&]() {
    if (word.empty()) return;
    if (col > indent && col + 1 + word_cols > width) {
      out += "\n" + pad;
      col = indent;
    } else if (col > indent) {
      out += ' ';
      ++col;
    }
    out += word;
    col += word_cols;
    word.clear();
    word_cols = 0;
  };
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    len = std::min(len, text.size() - i);
    if (c == ' ' || c == '\n' || c == '\t') {
      flush_word();
    } else {
      word.append(text, i, len);
      word_cols += len == 3 ? 2 : 1;  // CJK takes two columns
      if (len == 3 && word_cols >= width - indent - 2) flush_word();
    }
    i += len;
  }
  flush_word();
  return out + "\n";
}

// "label: text", wrapped; text written over several lines (steps, a shell
// script) keeps its lines, each under the label, so that a `#` comment
// cannot swallow the command after it.
std::string WrapField(const char* label, const std::string& text, std::size_t indent) {
  if (text.find('\n') == std::string::npos) return Wrap(fmt::format("{}: {}", label, text), indent);
  std::string out = Wrap(fmt::format("{}:", label), indent);
  for (std::string_view line : util::SplitLines(text)) {
    if (!util::Trim(line).empty()) out += Wrap(std::string(line), indent + 2);
  }
  return out;
}

std::string Percent(double rate) { return fmt::format("{:>3.0f}%", rate * 100); }

const std::string& Pick(Lang lang, const std::string& zh, const std::string& en) {
  return lang == Lang::kZh && !zh.empty() ? zh : en;
}

// "reported: 7 worked, 2 failed · 90% 62-94% · curated 85% · linux 5/5"
std::string ReportedLine(const Labels& L, const store::ActionEvidence& a) {
  std::string s = fmt::format("{}: {} {}, {} {}", L.reported, a.worked, L.worked, a.failed, L.failed);
  if (a.partial > 0) s += fmt::format(", {} {}", a.partial, L.partial);
  s += fmt::format(" · 90% {:.0f}-{:.0f}% · {} {:.0f}%", a.rate.low * 100, a.rate.high * 100, L.curated, a.curated * 100);
  for (const store::EnvRate& e : a.by_env) {
    s += fmt::format(" · {}={} {:.0f}% ({})", e.key, e.value, e.rate.mean * 100, e.worked + e.failed + e.partial);
  }
  return s;
}

std::string EdgeText(const Edge& e, const KnowledgeBase* kb) {
  std::string s = e.error_id;
  if (e.probability) s += fmt::format(" (p={:.2f})", *e.probability);
  if (!e.condition.empty()) s += " — " + e.condition;
  if (!e.distinction.empty()) s += " — " + e.distinction;
  if (e.condition.empty() && e.distinction.empty() && kb) {
    if (const Record* r = kb->Find(e.error_id)) s += " — " + r->signature;
  }
  return s;
}

}  // namespace

std::string RenderRecordText(const Record& r, Lang lang, const KnowledgeBase* kb, const store::RecordEvidence* evidence) {
  const Labels& L = lang == Lang::kZh ? kZh : kEn;
  std::string out;
  out += r.id;
  if (!r.domain.empty()) out += fmt::format("  [{}{}{}]", r.domain, r.category.empty() ? "" : " · ", r.category);
  out += "\n" + Wrap(Pick(lang, r.signature_zh, r.signature), 0);

  out += fmt::format("\n{}\n", L.root_cause);
  out += Wrap(Pick(lang, r.root_cause_zh, r.root_cause), 2);

  if (!r.workarounds.empty()) {
    out += fmt::format("\n{}\n", L.workarounds);
    std::vector<std::size_t> order(r.workarounds.size());
    std::iota(order.begin(), order.end(), 0);
    auto rate = [&](std::size_t i) {
      const auto* seen = ReportedAction(evidence, store::ActionKind::kWorkaround, i);
      return seen ? seen->rate.mean : r.workarounds[i].success_rate;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(a) > rate(b); });
    for (std::size_t i : order) {
      const Workaround& w = r.workarounds[i];
      std::string action = i < r.workarounds_zh.size() ? Pick(lang, r.workarounds_zh[i], w.action) : w.action;
      if (action.empty()) action = L.no_action;
      std::string block = Wrap(action, 7);
      out += "  " + Percent(rate(i)) + block.substr(6);
      if (const auto* seen = ReportedAction(evidence, store::ActionKind::kWorkaround, i)) {
        out += Wrap(ReportedLine(L, *seen), 7);
        if (seen->likely_dead_end) out += Wrap(std::string("⚠ ") + L.likely_dead_end, 7);
      }
      if (!w.how.empty() && w.how != w.action) out += WrapField(L.how, w.how, 7);
      if (!w.condition.empty()) out += Wrap(fmt::format("{}: {}", L.when, w.condition), 7);
      if (!w.tradeoff.empty()) out += Wrap(fmt::format("{}: {}", L.tradeoff, w.tradeoff), 7);
    }
  }
  if (!r.dead_ends.empty()) {
    out += fmt::format("\n{}\n", L.dead_ends);
    std::vector<std::size_t> order(r.dead_ends.size());
    std::iota(order.begin(), order.end(), 0);
    auto rate = [&](std::size_t i) {
      const auto* seen = ReportedAction(evidence, store::ActionKind::kDeadEnd, i);
      return seen ? seen->rate.mean : r.dead_ends[i].fail_rate;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(a) > rate(b); });
    for (std::size_t i : order) {
      const DeadEnd& d = r.dead_ends[i];
      std::string block = Wrap(d.action.empty() ? L.no_action : d.action, 7);
      out += "  " + Percent(rate(i)) + block.substr(6);
      if (const auto* seen = ReportedAction(evidence, store::ActionKind::kDeadEnd, i)) out += Wrap(ReportedLine(L, *seen), 7);
      if (!d.why_fails.empty()) out += Wrap("✗ " + d.why_fails, 7);
      if (!d.condition.empty()) out += Wrap(fmt::format("{}: {}", L.when, d.condition), 7);
    }
  }

  if (!r.versions.empty() || !r.os_specific.empty()) {
    out += fmt::format("\n{}\n", L.applies_to);
    if (!r.versions.empty()) {
      std::string v;
      for (const auto& e : r.versions) {
        if (!v.empty()) v += ", ";
        v += e.version;
        if (!e.introduced.empty()) v += " (introduced " + e.introduced + ")";
        if (!e.removed.empty()) v += " (removed " + e.removed + ")";
        if (!e.status.empty() && e.status != "active") v += " [" + e.status + "]";
      }
      out += Wrap(fmt::format("{}: {}", L.versions, v), 2);
    }
    for (const auto& [os, note] : r.os_specific) {
      out += Wrap(fmt::format("{}: {}{}{}", L.os, os, note.empty() ? "" : " — ", note), 2);
    }
  }

  const auto& g = r.transition_graph;
  if (!g.leads_to.empty() || !g.preceded_by.empty() || !g.frequently_confused_with.empty()) {
    out += fmt::format("\n{}\n", L.related);
    for (const auto& e : g.leads_to) out += Wrap(fmt::format("{}: {}", L.leads_to, EdgeText(e, kb)), 2);
    for (const auto& e : g.preceded_by) out += Wrap(fmt::format("{}: {}", L.preceded_by, EdgeText(e, kb)), 2);
    for (const auto& e : g.frequently_confused_with) {
      out += Wrap(fmt::format("{}: {}", L.confused_with, EdgeText(e, kb)), 2);
    }
  }

  out += "\n";
  if (!r.error_code.empty()) out += fmt::format("{}: {}\n", L.error_code, r.error_code);
  if (!r.official_doc_url.empty()) {
    out += fmt::format("{}: {}{}\n", L.docs, r.official_doc_url,
                       r.official_doc_section.empty() ? "" : " (" + r.official_doc_section + ")");
  }
  if (!r.sources.empty()) {
    out += fmt::format("{}:\n", L.sources);
    for (const auto& u : r.sources) out += "  " + u + "\n";
  }
  if (!r.occurrences.empty() || !r.counterexamples.empty()) {
    out += fmt::format(fmt::runtime(L.occurrences), r.occurrences.size(), r.counterexamples.size()) + "\n";
  }
  std::string verdict = fmt::format("{}: {} {}", L.verdict, L.resolvable, ResolvableName(r.resolvable));
  if (r.fix_success_rate) verdict += fmt::format(" · {} {:.0f}%", L.fix_rate, *r.fix_success_rate * 100);
  if (r.confidence) verdict += fmt::format(" · {} {:.2f}", L.confidence, *r.confidence);
  if (!r.verification_tier.empty()) verdict += fmt::format(" · {} {}", L.tier, r.verification_tier);
  verdict += fmt::format(" · {} {}", L.evidence, evidence ? evidence->evidence_count : r.evidence_count);
  out += verdict + "\n";
  if (!r.verification_note.empty()) out += Wrap(fmt::format("{}: {}", L.checked, r.verification_note), 0);
  if (r.first_seen || r.last_confirmed) {
    std::string dates;
    if (r.first_seen) dates += fmt::format("{} {}", L.first_seen, r.first_seen->ToString());
    if (r.last_confirmed) dates += fmt::format("{}{} {}", dates.empty() ? "" : " · ", L.last_confirmed, r.last_confirmed->ToString());
    out += dates + "\n";
  }
  if (!r.attribution.empty()) out += fmt::format("{}: {}\n", L.source, r.attribution);
  return out;
}

}  // namespace kedb
