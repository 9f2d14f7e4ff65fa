#include "kb/deadends_import.h"

#include <array>
#include <string_view>

namespace kedb {
namespace {

constexpr std::string_view kExtra = "x_deadends";

// Native top-level field <- canon path. Order is the native field order.
struct FieldMap {
  std::string_view native;
  std::string_view parent;  // "" for the canon's top level
  std::string_view key;
};
constexpr std::array<FieldMap, 17> kDirect = {{
    {"id", "", "id"},
    {"signature", "error", "signature"},
    {"regex", "error", "regex"},
    {"domain", "error", "domain"},
    {"category", "error", "category"},
    {"root_cause", "verdict", "summary"},
    {"dead_ends", "", "dead_ends"},
    {"workarounds", "", "workarounds"},
    {"transition_graph", "", "transition_graph"},
    {"verification_tier", "metadata", "review_status"},
    {"confidence", "verdict", "confidence"},
    {"fix_success_rate", "verdict", "fix_success_rate"},
    {"resolvable", "verdict", "resolvable"},
    {"first_seen", "error", "first_seen"},
    {"last_confirmed", "error", "last_confirmed"},
    {"last_updated", "verdict", "last_updated"},
    {"evidence_count", "metadata", "evidence_count"},
}};

const Json* Member(const Json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(std::string(key));
  return it == obj.end() ? nullptr : &*it;
}

const FieldMap* ByNative(std::string_view native) {
  for (const auto& m : kDirect) {
    if (m.native == native) return &m;
  }
  return nullptr;
}

void DropIfEmptyObject(Json& obj, std::string_view key) {
  auto it = obj.find(std::string(key));
  if (it != obj.end() && it->is_object() && it->empty()) obj.erase(it);
}

}  // namespace

bool IsDeadendsCanon(const Json& doc) {
  return doc.is_object() && doc.contains("error") && doc["error"].is_object() && !doc.contains("signature");
}

Json ConvertDeadendsCanon(Json canon) {
  Json out = Json::object();
  // Mapped values are moved out of the canon; what remains is the residual.
  Json& residual = canon;
  auto take = [&](std::string_view native) {
    const FieldMap& m = *ByNative(native);
    Json* parent = m.parent.empty() ? &residual : nullptr;
    if (!parent) {
      auto it = residual.find(std::string(m.parent));
      if (it != residual.end() && it->is_object()) parent = &*it;
    }
    if (!parent) return;
    auto it = parent->find(std::string(m.key));
    if (it == parent->end()) return;
    out[std::string(native)] = std::move(*it);
    parent->erase(it);
  };
  auto set = [&](const char* native, Json value) { out[native] = std::move(value); };

  take("id");
  take("signature");
  set("signature_zh", nullptr);
  take("regex");
  take("domain");
  take("category");
  set("subcategory", nullptr);
  take("root_cause");
  set("root_cause_type", nullptr);
  set("root_cause_zh", nullptr);

  // environment.runtime -> one versions entry; environment.os -> os_specific.
  Json versions = Json::array();
  Json* env = residual.contains("environment") && residual["environment"].is_object() ? &residual["environment"] : nullptr;
  Json* runtime = env && env->contains("runtime") && (*env)["runtime"].is_object() ? &(*env)["runtime"] : nullptr;
  if (runtime) {
    const Json* name = Member(*runtime, "name");
    const Json* range = Member(*runtime, "version_range");
    if (name && range && name->is_string() && range->is_string() &&
        name->get<std::string>().find(' ') == std::string::npos) {
      Json entry = Json::object();
      entry["version"] = name->get<std::string>() + " " + range->get<std::string>();
      for (const char* k : {"introduced", "deprecated", "removed", "behavior_change"}) entry[k] = nullptr;
      entry["status"] = "active";
      versions.push_back(std::move(entry));
      runtime->erase("name");
      runtime->erase("version_range");
      DropIfEmptyObject(*env, "runtime");
    }
  }
  set("versions", std::move(versions));
  if (const Json* os = env ? Member(*env, "os") : nullptr; os && os->is_string()) {
    Json os_specific = Json::object();
    if (*os != "any") os_specific[os->get<std::string>()] = nullptr;
    set("os_specific", std::move(os_specific));
    env->erase("os");
  }
  DropIfEmptyObject(residual, "environment");

  take("dead_ends");
  take("workarounds");
  set("workarounds_zh", Json::array());
  take("transition_graph");
  set("official_doc_url", nullptr);
  set("official_doc_section", nullptr);
  set("error_code", nullptr);
  take("verification_tier");
  take("confidence");
  take("fix_success_rate");
  take("resolvable");
  take("first_seen");
  take("last_confirmed");
  take("last_updated");
  take("evidence_count");
  set("tags", Json::array());
  set("locale", "en");
  set("aliases", Json::array());
  for (const char* parent : {"error", "verdict", "metadata"}) DropIfEmptyObject(residual, parent);
  if (residual.is_object() && !residual.empty()) set(kExtra.data(), std::move(residual));
  return out;
}

Json ConvertNativeToDeadends(const Json& native) {
  Json canon = Json::object();
  if (const Json* extra = Member(native, kExtra)) canon = *extra;
  for (const auto& m : kDirect) {
    const Json* v = Member(native, m.native);
    if (!v) continue;
    if (m.parent.empty()) {
      canon[std::string(m.key)] = *v;
    } else {
      canon[std::string(m.parent)][std::string(m.key)] = *v;
    }
  }
  if (const Json* versions = Member(native, "versions"); versions && versions->is_array() && !versions->empty()) {
    const std::string v = (*versions)[0].value("version", "");
    auto space = v.find(' ');
    Json& rt = canon["environment"]["runtime"];
    rt["name"] = v.substr(0, space);
    rt["version_range"] = space == std::string::npos ? "" : v.substr(space + 1);
  }
  if (const Json* os = Member(native, "os_specific"); os && os->is_object()) {
    canon["environment"]["os"] = os->empty() ? std::string("any") : os->begin().key();
  }
  return canon;
}

JsonPath NativePathToDeadends(const JsonPath& native_path) {
  if (native_path.empty()) return native_path;
  const auto* first = std::get_if<std::string>(&native_path[0]);
  if (!first) return native_path;
  JsonPath out;
  if (*first == "versions") {
    out = {std::string("environment"), std::string("runtime")};
  } else if (*first == "os_specific") {
    out = {std::string("environment"), std::string("os")};
  } else if (*first == kExtra) {
    out.assign(native_path.begin() + 1, native_path.end());
  } else if (const FieldMap* m = ByNative(*first)) {
    if (!m->parent.empty()) out.emplace_back(std::string(m->parent));
    out.emplace_back(std::string(m->key));
    out.insert(out.end(), native_path.begin() + 1, native_path.end());
  }
  return out;  // fields with no canon source: the document itself
}

}  // namespace kedb
