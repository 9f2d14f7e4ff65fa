#include "store/outcome.h"

#include <algorithm>
#include <random>

#include <fmt/format.h>

namespace kedb::store {

std::string_view ToString(ActionKind kind) { return kind == ActionKind::kWorkaround ? "workaround" : "dead_end"; }

std::string_view ToString(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWorked: return "worked";
    case Outcome::kFailed: return "failed";
    case Outcome::kPartial: return "partial";
  }
  return "worked";
}

std::optional<ActionKind> ParseActionKind(std::string_view text) {
  if (text == "workaround") return ActionKind::kWorkaround;
  if (text == "dead_end") return ActionKind::kDeadEnd;
  return std::nullopt;
}

std::optional<Outcome> ParseOutcome(std::string_view text) {
  if (text == "worked") return Outcome::kWorked;
  if (text == "failed") return Outcome::kFailed;
  if (text == "partial") return Outcome::kPartial;
  return std::nullopt;
}

namespace {

// Text a person or a program wrote, kept as given, must still be text:
// no control characters but tab and newline.
bool IsPlainText(std::string_view s) {
  return std::none_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t' && c != '\n') || u == 0x7f;
  });
}

std::string TooLong(std::string_view field, std::size_t size, std::size_t most) {
  return fmt::format("{}: {} bytes, at most {}", field, size, most);
}

}  // namespace

std::string CheckReport(const OutcomeReport& r) {
  if (r.event_id.empty()) return "event_id: empty";
  if (r.event_id.size() > kMaxEventIdBytes) return TooLong("event_id", r.event_id.size(), kMaxEventIdBytes);
  if (!std::all_of(r.event_id.begin(), r.event_id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == '.' || c == ':';
      })) {
    return "event_id: only letters, digits and - _ . : are allowed";
  }
  if (r.record_id.empty()) return "record_id: empty";
  if (r.position < 1) return fmt::format("position: {} (actions are numbered from 1)", r.position);
  if (r.note.size() > kMaxNoteBytes) return TooLong("note", r.note.size(), kMaxNoteBytes);
  if (!IsPlainText(r.note)) return "note: holds control characters";
  if (!IsPlainText(r.action)) return "action: holds control characters";
  if (r.env.size() > kMaxEnvPairs) return fmt::format("env: {} pairs, at most {}", r.env.size(), kMaxEnvPairs);
  for (std::size_t i = 0; i < r.env.size(); ++i) {
    const auto& [key, value] = r.env[i];
    const std::string field = fmt::format("env[{}]", i);
    if (key.empty() || value.empty()) return field + ": a key and a value are both needed";
    if (key.size() > kMaxEnvBytes || value.size() > kMaxEnvBytes) {
      return TooLong(field, std::max(key.size(), value.size()), kMaxEnvBytes);
    }
    if (!IsPlainText(key) || !IsPlainText(value)) return field + ": holds control characters";
    if (i > 0 && r.env[i - 1].first >= key) return field + ": keys must be sorted and unique";
  }
  return "";
}

std::string NewEventId() {
  std::random_device device;
  std::uniform_int_distribution<uint32_t> word;
  std::string id;
  for (int i = 0; i < 4; ++i) id += fmt::format("{:08x}", word(device));
  return id;
}

}  // namespace kedb::store
