#include "serve/json_schema.h"

#include <cmath>

#include <fmt/format.h>

namespace kedb::serve {
namespace {

bool HasType(const Json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    // 3.0 is an integer to JSON Schema, though nlohmann keeps it a double.
    // Only doubles within long long's range count: casting one beyond it is
    // undefined behaviour, and a request may well send 3.3e22.
    if (!value.is_number_float()) return false;
    const double d = value.get<double>();
    return d >= -0x1p63 && d < 0x1p63 && d == std::trunc(d);
  }
  return false;
}

std::string Where(const std::string& path) { return path.empty() ? "the arguments" : fmt::format("\"{}\"", path); }

std::string Describe(const Json& schema) {
  std::string type = schema.contains("type") && schema["type"].is_string() ? schema["type"].get<std::string>() : "";
  const bool has_min = schema.contains("minimum"), has_max = schema.contains("maximum");
  if ((type == "integer" || type == "number") && has_min && has_max) {
    return fmt::format("{} from {} to {}", type == "integer" ? "an integer" : "a number", schema["minimum"].dump(),
                       schema["maximum"].dump());
  }
  if (type == "array") return "an array";
  if (type == "object") return "an object";
  if (type == "integer") return "an integer";
  return type.empty() ? "a valid value" : fmt::format("a {}", type);
}

std::optional<std::string> Check(const Json& value, const Json& schema, const std::string& path) {
  if (schema.contains("type")) {
    const Json& t = schema["type"];
    bool ok = false;
    if (t.is_string()) {
      ok = HasType(value, t.get<std::string>());
    } else if (t.is_array()) {
      for (const auto& one : t) ok = ok || (one.is_string() && HasType(value, one.get<std::string>()));
    }
    if (!ok) return fmt::format("{}: must be {}", Where(path), Describe(schema));
  }
  if (schema.contains("enum")) {
    bool found = false;
    std::string options;
    for (const auto& e : schema["enum"]) {
      found = found || e == value;
      options += (options.empty() ? "" : ", ") + e.dump();
    }
    if (!found) return fmt::format("{}: must be one of {}", Where(path), options);
  }
  if (value.is_number()) {
    double v = value.get<double>();
    if ((schema.contains("minimum") && v < schema["minimum"].get<double>()) ||
        (schema.contains("maximum") && v > schema["maximum"].get<double>())) {
      return fmt::format("{}: must be {}", Where(path), Describe(schema));
    }
  }
  if (value.is_string()) {
    // Lengths are in bytes of UTF-8, which is what limits cost.
    std::size_t n = value.get_ref<const std::string&>().size();
    if (schema.contains("minLength") && n < schema["minLength"].get<std::size_t>()) {
      return fmt::format("{}: must not be empty", Where(path));
    }
    if (schema.contains("maxLength") && n > schema["maxLength"].get<std::size_t>()) {
      return fmt::format("{}: longer than {} bytes", Where(path), schema["maxLength"].get<std::size_t>());
    }
  }
  if (value.is_array()) {
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>()) {
      return fmt::format("{}: needs at least {} items", Where(path), schema["minItems"].get<std::size_t>());
    }
    if (schema.contains("maxItems") && value.size() > schema["maxItems"].get<std::size_t>()) {
      return fmt::format("{}: takes at most {} items", Where(path), schema["maxItems"].get<std::size_t>());
    }
    if (schema.contains("items")) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (auto e = Check(value[i], schema["items"], fmt::format("{}[{}]", path, i))) return e;
      }
    }
  }
  if (value.is_object()) {
    const Json* props = schema.contains("properties") ? &schema["properties"] : nullptr;
    if (schema.contains("required")) {
      for (const auto& name : schema["required"]) {
        if (!value.contains(name.get<std::string>())) {
          std::string field = path.empty() ? name.get<std::string>() : path + "." + name.get<std::string>();
          return fmt::format("\"{}\": is required", field);
        }
      }
    }
    for (const auto& [key, v] : value.items()) {
      std::string field = path.empty() ? key : path + "." + key;
      if (props && props->contains(key)) {
        if (auto e = Check(v, (*props)[key], field)) return e;
      } else if (schema.contains("additionalProperties") && schema["additionalProperties"] == false) {
        std::string known;
        if (props) {
          for (const auto& [k, _] : props->items()) known += (known.empty() ? "" : ", ") + k;
        }
        return fmt::format("\"{}\": unknown field (known: {})", field, known.empty() ? "none" : known);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Status CheckAgainstSchema(const Json& value, const Json& schema) {
  if (auto why = Check(value, schema, "")) return Status::InvalidArgument(std::move(*why));
  return Status::Ok();
}

}  // namespace kedb::serve
