// Words for full-text search, in English and Chinese.
//
//   - Latin text is lower-cased and cut at anything that is not a letter,
//     digit, '_' or '.'; identifiers stay whole ("cudnn_status_bad_param",
//     "e0502", "ts2307", "torch.cuda.outofmemoryerror") and their parts are
//     added too ("cudnn", "status", "bad", "param"; "torch", "cuda", ...), so
//     that a query may name either.
//   - CJK text (Han, kana, Hangul) has no spaces: each run is cut into
//     overlapping bigrams ("批量归一化" -> 批量 量归 归一 一化); a run of one
//     character is kept as it is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kedb::search {

// In text order, repeats kept (term frequency counts them).
std::vector<std::string> Tokenize(std::string_view text);

}  // namespace kedb::search
