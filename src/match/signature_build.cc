// Building a signature index: every record's words read once, interned,
// weighted and written as the sections of an index file
// (signature_layout.h), which the index then uses as it uses a cached one.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <unordered_map>

#include "match/signature_layout.h"
#include "match/similarity.h"
#include "match/similarity_rules.h"
#include "util/strings.h"
#include "util/text_words.h"

namespace kedb::match {

using similarity_rules::CodeFamily;
using similarity_rules::kUnknownWordWeight;
using similarity_rules::MaxCandidateDf;
namespace layout = signature_layout;

namespace {

// `text` without its parts in round brackets (not nested further).
std::string WithoutBracketed(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (depth == 0) out += c;
    if (c == ')' && depth > 0) --depth;
  }
  return depth == 0 ? out : std::string(text);
}

// Five digits or more, nothing else: 65536, 134217728; not 404 or 1045,
// which name errors.
bool IsLongNumber(std::string_view word) {
  return word.size() >= 5 && std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void SortUnique(std::vector<uint32_t>* ids) {
  std::sort(ids->begin(), ids->end());
  ids->erase(std::unique(ids->begin(), ids->end()), ids->end());
}

struct Hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
using Interned = std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>>;

// The id of `s` in `table`, the next one when it is new.
uint32_t Intern(Interned* table, std::string_view s) {
  auto it = table->find(s);
  if (it == table->end()) it = table->emplace(std::string(s), static_cast<uint32_t>(table->size())).first;
  return it->second;
}

std::vector<std::string_view> ById(const Interned& table) {
  std::vector<std::string_view> by_id(table.size());
  for (const auto& [s, id] : table) by_id[id] = s;
  return by_id;
}

// Everything the index holds but the counterexamples, as plain vectors.
struct Tables {
  Interned words, codes, families;
  std::vector<std::string> domains;  // per record
  std::vector<double> idf;
  std::vector<uint32_t> phrase_ids, phrase_begin, record_phrases, all_ids, all_begin;
  std::vector<double> phrase_weight, all_weight;
  std::vector<uint32_t> bare_ids, bare_begin;
  std::vector<double> bare_weight;
  std::vector<uint32_t> domain_word, code_df, code_ids_list, code_begin, code_family;
  std::vector<uint32_t> postings_begin, postings;

  // With `base_df` (and `base_records`), words weigh what they would in
  // a knowledge base of base's records and these: a word's document
  // frequency adds what base_df says of it.
  using BaseDf = std::function<double(std::string_view)>;
  void Read(const KnowledgeBase& kb, const BaseDf& base_df = {}, std::size_t base_records = 0);
  void Derive(const BaseDf& base_df, std::size_t base_records);
  std::map<std::string, double> other_domain_sizes;  // of the index laid under, if any
  void Write(util::SectionWriter* w) const;

 private:
  void ReadRecord(const Record& rec);
  void AddPhrase(std::string_view text, std::vector<uint32_t>* all);
  void InternWords(std::string_view text, std::vector<uint32_t>* out) {
    util::ForEachWord(text, [&](std::string_view w) { out->push_back(Intern(&words, w)); });
  }
};

void Tables::AddPhrase(std::string_view text, std::vector<uint32_t>* all) {
  std::vector<uint32_t> phrase;
  InternWords(text, &phrase);
  SortUnique(&phrase);
  if (phrase.empty()) return;
  phrase_begin.push_back(static_cast<uint32_t>(phrase_ids.size()));
  phrase_ids.insert(phrase_ids.end(), phrase.begin(), phrase.end());
  all->insert(all->end(), phrase.begin(), phrase.end());
}

void Tables::ReadRecord(const Record& rec) {
  record_phrases.push_back(static_cast<uint32_t>(phrase_begin.size()));
  std::vector<uint32_t> all;
  AddPhrase(rec.signature, &all);
  for (const auto& a : rec.aliases) AddPhrase(a, &all);
  // The signature without its details in brackets, "(tried to allocate N
  // bytes)", which people quoting the message leave out: for recall only,
  // or two records that differ in their details would read alike.
  bare_begin.push_back(static_cast<uint32_t>(bare_ids.size()));
  if (std::string bare = WithoutBracketed(rec.signature); bare != rec.signature) {
    std::vector<uint32_t> phrase;
    InternWords(bare, &phrase);
    SortUnique(&phrase);
    bare_ids.insert(bare_ids.end(), phrase.begin(), phrase.end());
  }
  // The errors it names, in its signature, aliases and pattern.
  std::string named = rec.signature;
  for (const auto& a : rec.aliases) (named += '\n') += a;
  (named += '\n') += util::PatternText(rec.regex);
  code_begin.push_back(static_cast<uint32_t>(code_ids_list.size()));
  std::vector<uint32_t> names;
  util::ForEachCode(named, [&](std::string_view c) {
    const uint32_t id = Intern(&codes, c);
    if (id == code_df.size()) code_df.push_back(0);
    names.push_back(id);
  });
  SortUnique(&names);
  for (uint32_t c : names) ++code_df[c];
  code_ids_list.insert(code_ids_list.end(), names.begin(), names.end());
  InternWords(util::PatternText(rec.regex), &all);
  SortUnique(&all);
  all_begin.push_back(static_cast<uint32_t>(all_ids.size()));
  all_ids.insert(all_ids.end(), all.begin(), all.end());
  // The domain's own name is the plainest cue of all.
  std::string domain = rec.domain;
  for (char& c : domain) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<uint32_t> domain_words;
  InternWords(domain, &domain_words);
  domain_word.push_back(domain_words.empty() ? UINT32_MAX : domain_words.front());
  domains.push_back(std::move(domain));
}

void Tables::Read(const KnowledgeBase& kb, const BaseDf& base_df, std::size_t base_records) {
  const std::size_t n = kb.size();
  domains.reserve(n);
  record_phrases.reserve(n + 1);
  all_begin.reserve(n + 1);
  kb.ForEachRecord([&](std::size_t, const Record& rec) { ReadRecord(rec); });
  record_phrases.push_back(static_cast<uint32_t>(phrase_begin.size()));
  phrase_begin.push_back(static_cast<uint32_t>(phrase_ids.size()));
  bare_begin.push_back(static_cast<uint32_t>(bare_ids.size()));
  all_begin.push_back(static_cast<uint32_t>(all_ids.size()));
  code_begin.push_back(static_cast<uint32_t>(code_ids_list.size()));
  Derive(base_df, base_records);
}

// Everything computed from the words each record has: idf, weights,
// postings and code families.
void Tables::Derive(const BaseDf& base_df, std::size_t base_records) {
  const std::size_t n_records = domains.size();
  std::vector<uint32_t> df(words.size(), 0);
  for (uint32_t id : all_ids) ++df[id];
  std::vector<double> weighed_df(df.begin(), df.end());
  if (base_df) {
    for (const auto& [word, id] : words) weighed_df[id] += base_df(word);
  }
  const double n = static_cast<double>(std::max<std::size_t>(n_records + base_records, 1));
  idf.resize(words.size());
  for (std::size_t t = 0; t < idf.size(); ++t) idf[t] = std::log(1 + n / std::max<double>(weighed_df[t], 1));
  // A long number in a record is a value (a size, an address, a pid) that
  // the next occurrence of the error will not repeat; rare as it is, it
  // weighs as little as an unknown word, or a signature that quotes one
  // could not be recognised without it.
  for (const auto& [word, id] : words) {
    if (IsLongNumber(word)) idf[id] = std::min(idf[id], kUnknownWordWeight);
  }
  const std::size_t max_df = MaxCandidateDf(n_records);
  postings_begin.assign(words.size() + 1, 0);
  for (std::size_t t = 0; t < df.size(); ++t) postings_begin[t + 1] = postings_begin[t] + (df[t] <= max_df ? df[t] : 0);
  postings.resize(postings_begin.back());
  std::vector<uint32_t> fill(postings_begin.begin(), postings_begin.end() - 1);
  auto weight = [&](const std::vector<uint32_t>& ids, uint32_t begin, uint32_t end) {
    double w = 0;
    for (uint32_t j = begin; j < end; ++j) w += idf[ids[j]];
    return w;
  };
  for (std::size_t k = 0; k + 1 < phrase_begin.size(); ++k) {
    phrase_weight.push_back(weight(phrase_ids, phrase_begin[k], phrase_begin[k + 1]));
  }
  for (std::size_t i = 0; i + 1 < bare_begin.size(); ++i) {
    bare_weight.push_back(weight(bare_ids, bare_begin[i], bare_begin[i + 1]));
  }
  for (uint32_t i = 0; i < n_records; ++i) {
    all_weight.push_back(weight(all_ids, all_begin[i], all_begin[i + 1]));
    for (uint32_t k = all_begin[i]; k < all_begin[i + 1]; ++k) {
      if (df[all_ids[k]] <= max_df) postings[fill[all_ids[k]]++] = i;
    }
  }
  // Code families, from the codes' own names.
  code_family.assign(codes.size(), UINT32_MAX);
  for (const auto& [code, id] : codes) {
    std::string_view family = CodeFamily(code);
    if (!family.empty()) code_family[id] = Intern(&families, family);
  }
}

void Tables::Write(util::SectionWriter* w) const {
  util::StringTable::Write(ById(words), w);
  util::StringTable::Write(ById(codes), w);
  util::StringTable::Write(ById(families), w);
  // A domain's cue words: every word of its records, and its own name.
  const std::size_t n_records = domains.size();
  std::vector<uint32_t> cue_begin{0}, cue_words;
  cue_words.reserve(all_ids.size() + n_records);
  for (uint32_t i = 0; i < n_records; ++i) {
    const auto first = all_ids.begin() + all_begin[i], last = all_ids.begin() + all_begin[i + 1];
    cue_words.insert(cue_words.end(), first, last);
    if (domain_word[i] != UINT32_MAX && !std::binary_search(first, last, domain_word[i])) {
      cue_words.push_back(domain_word[i]);
    }
    cue_begin.push_back(static_cast<uint32_t>(cue_words.size()));
  }
  DomainCues::Write(domains, cue_begin, cue_words, words.size(), w, other_domain_sizes);
  w->Add(idf);
  for (const auto* v : {&phrase_ids, &phrase_begin, &record_phrases, &all_ids, &all_begin}) w->Add(*v);
  w->Add(phrase_weight);
  w->Add(all_weight);
  w->Add(bare_ids);
  w->Add(bare_begin);
  w->Add(bare_weight);
  for (const auto* v : {&domain_word, &code_df, &code_ids_list, &code_begin, &code_family, &postings_begin, &postings}) {
    w->Add(*v);
  }
}

}  // namespace

void DomainCues::Write(const std::vector<std::string>& domains, const std::vector<uint32_t>& begin,
                       const std::vector<uint32_t>& words, std::size_t word_count, util::SectionWriter* w,
                       const std::map<std::string, double>& other_sizes) {
  std::map<std::string, uint16_t> index;
  for (const auto& d : domains) index.emplace(d, 0);
  std::vector<std::string_view> names;
  for (auto& [name, i] : index) {
    i = static_cast<uint16_t>(names.size());
    names.push_back(name);
  }
  std::vector<double> records_in(names.size(), 0);
  std::vector<uint16_t> record_domain;
  record_domain.reserve(domains.size());
  for (const auto& d : domains) {
    record_domain.push_back(index[d]);
    ++records_in[index[d]];
  }
  for (std::size_t d = 0; d < names.size(); ++d) {
    auto it = other_sizes.find(std::string(names[d]));
    if (it != other_sizes.end()) records_in[d] += it->second;
  }
  // Per word: in how many records of each domain it appears.
  std::vector<std::pair<uint32_t, uint16_t>> pairs;
  pairs.reserve(words.size());
  for (std::size_t r = 0; r + 1 < begin.size(); ++r) {
    for (uint32_t k = begin[r]; k < begin[r + 1]; ++k) pairs.emplace_back(words[k], record_domain[r]);
  }
  std::sort(pairs.begin(), pairs.end());
  std::vector<uint32_t> by_word_begin(word_count + 1, 0);
  std::vector<Share> by_word;
  std::vector<float> word_total(word_count, 0);
  for (std::size_t i = 0; i < pairs.size();) {
    const uint32_t word = pairs[i].first;
    std::size_t end = i;
    while (end < pairs.size() && pairs[end].first == word) ++end;
    const std::size_t first = by_word.size();
    double total = 0;
    for (std::size_t k = i; k < end;) {
      std::size_t run = k;
      while (run < end && pairs[run].second == pairs[k].second) ++run;
      const double share = static_cast<double>(run - k) / records_in[pairs[k].second];
      by_word.push_back({pairs[k].second, 0, static_cast<float>(share)});
      total += share;
      k = run;
    }
    for (std::size_t k = first; k < by_word.size(); ++k) by_word[k].share = static_cast<float>(by_word[k].share / total);
    if (word < word_count) word_total[word] = static_cast<float>(total);
    by_word_begin[word + 1] = static_cast<uint32_t>(by_word.size() - first);
    i = end;
  }
  for (std::size_t t = 0; t < word_count; ++t) by_word_begin[t + 1] += by_word_begin[t];
  util::StringTable::Write(names, w);
  w->Add(record_domain);
  w->Add(by_word_begin);
  w->Add(by_word);
  w->Add(word_total);
}

std::string SignatureIndex::BuildFile(const KnowledgeBase& kb, uint64_t key, const SignatureIndex* weighed_like) {
  Tables tables;
  if (weighed_like) {
    // idf = log(1 + n / df), so df = n / (e^idf - 1).
    const double base_n = static_cast<double>(std::max<std::size_t>(weighed_like->records_, 1));
    tables.Read(
        kb,
        [weighed_like, base_n](std::string_view word) {
          const int64_t id = weighed_like->words_.Find(word);
          return id < 0 ? 0.0 : base_n / std::expm1(weighed_like->idf_[static_cast<std::size_t>(id)]);
        },
        weighed_like->records_);
    tables.other_domain_sizes = weighed_like->cues_.Sizes();
  } else {
    tables.Read(kb);
  }
  util::SectionWriter w;
  tables.Write(&w);
  // The counterexamples' lines are read as words with the weights above
  // (and must not change them): through an index of the sections so far.
  util::SectionWriter first = w;
  first.Add(std::vector<uint32_t>{});                     // no counterexample words
  first.Add(std::vector<uint32_t>{0});                    // no lines
  first.Add(std::vector<uint32_t>(kb.size() + 1, 0));    // for any record
  first.Add(std::vector<double>{});
  SignatureIndex without;
  if (!without.Bind(util::SectionFile::FromBytes(first.Finish(layout::kMagic, key), layout::kMagic, key), kb.size())) {
    return {};
  }
  std::vector<uint32_t> counter_ids, counter_begin, record_counters;
  std::vector<double> counter_weight;
  kb.ForEachRecord([&](std::size_t, const Record& rec) {
    record_counters.push_back(static_cast<uint32_t>(counter_weight.size()));
    for (const Occurrence& c : rec.counterexamples) {
      for (std::string_view text : util::SplitLines(c.text)) {
        const LineWords line = without.Words(text);
        if (line.known.empty()) continue;
        counter_begin.push_back(static_cast<uint32_t>(counter_ids.size()));
        for (const auto& [id, idf] : line.known) counter_ids.push_back(id);
        counter_weight.push_back(line.weight);
      }
    }
  });
  record_counters.push_back(static_cast<uint32_t>(counter_weight.size()));
  counter_begin.push_back(static_cast<uint32_t>(counter_ids.size()));
  w.Add(counter_ids);
  w.Add(counter_begin);
  w.Add(record_counters);
  w.Add(counter_weight);
  return w.Finish(layout::kMagic, key);
}

}  // namespace kedb::match
