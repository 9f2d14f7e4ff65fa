// The guesses a draft record needs before a curator looks at it: domain,
// category, an id, and which links are documentation or a fix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mine/post_parts.h"

namespace kedb::mine {

// The domain the thread's words point to ("cuda", "pytorch", "mxnet",
// "node", "rust", "kubernetes", ...), counting error lines and the title
// three times; `fallback` (a related record's domain) when nothing counts.
std::string GuessDomain(std::string_view title, const std::vector<std::string>& error_lines,
                        std::string_view all_text, std::string_view fallback);

// The category of the kind of failure the error lines name, in the
// vocabulary records use: resource_error, import_error, install_error,
// distributed_error, numerical_error, compile_error, build_error,
// type_error, value_error, config_error, hardware_error; runtime_error
// when none fits.
// `report` (the opening post) is read only when the error lines and the
// title name no kind.
std::string GuessCategory(const std::vector<std::string>& error_lines, std::string_view title,
                          std::string_view report);

// "domain/slug": the slug is the first distinctive words of `basis`
// (lower case, joined by '-', at most 6 words and 60 bytes), "thread" when
// it has none.
std::string MakeId(std::string_view domain, std::string_view basis);

// Documentation pages and fixes (pull requests, commits, releases) of a
// project: what official_doc_url and a curator want first.
bool IsOfficialLink(std::string_view url);

}  // namespace kedb::mine
