// Words for full-text search, in English and Chinese.
//
//   - Latin text is read by the word rules messages are compared by
//     (util/text_words.h), so that a search and a match agree on what a
//     word is: lower case, identifiers with their parts
//     (CUDNN_STATUS_BAD_PARAM -> cudnn_status_bad_param, cudnn, status,
//     bad, param; ConnectionRefusedError -> connectionrefusederror,
//     connection, refused, error), inflection removed ("connecting" ->
//     "connect"), one-letter words and hex values dropped. Unlike matching,
//     values stay: a search for a path or a quoted name finds the words in
//     it.
//   - CJK text (Han, kana, Hangul) has no spaces: each run is cut into
//     overlapping bigrams ("批量归一化" -> 批量 量归 归一 一化); a run of one
//     character is kept as it is.
//
// Cost: one pass over the text; a string per term.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kedb::search {

// In text order, an identifier's parts right after it, repeats kept (term
// frequency counts them).
std::vector<std::string> Tokenize(std::string_view text);

}  // namespace kedb::search
