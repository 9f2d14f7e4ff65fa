// Reading an error's words, measuring how much a text reads like a record,
// and the line kinds root order relies on.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "logs/line_kinds.h"
#include "match/fix_quote.h"
#include "match/similarity.h"
#include "util/error_phrases.h"
#include "util/text_words.h"
#include "test_util.h"

namespace kedb {
namespace {

using util::MessageCodes;
using util::MessageWords;
using util::PatternText;
using util::Stem;

bool Has(const std::vector<std::string>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

TEST(TextWords, ValuesAreMaskedAndWordsFolded) {
  // The same error on two machines reads the same.
  auto a = MessageWords("Error: Cannot find module 'express-session' (from /home/ana/app/index.js)");
  auto b = MessageWords("Error: Cannot find module 'lodash' (from C:\\Users\\bo\\app\\main.js)");
  EXPECT_EQ(a, b);
  EXPECT_TRUE(Has(a, "modul"));
  EXPECT_FALSE(Has(a, "express"));  // a quoted name is a value
  // URLs and hex are values too; numbers stay (codes are numbers).
  auto c = MessageWords("GET https://registry.npmjs.org/x failed at 0x7f3b6e7236fc with 404");
  EXPECT_FALSE(Has(c, "registry"));
  EXPECT_FALSE(Has(c, "0x7f3b6e7236fc"));
  EXPECT_TRUE(Has(c, "404"));
  // Inflections meet.
  EXPECT_EQ(Stem("connection"), Stem("connecting"));
  EXPECT_EQ(Stem("refused"), Stem("refuse"));
  EXPECT_EQ(Stem("denied"), "deny");
  EXPECT_EQ(Stem("string"), "string");  // too short to lose "ing"
  EXPECT_EQ(Stem("status"), "status");
  EXPECT_EQ(Stem("e11000"), "e11000");
}

TEST(TextWords, IdentifiersGiveTheirParts) {
  auto w = MessageWords("ConnectionRefusedError: CUDNN_STATUS_BAD_PARAM AADSTS700016");
  for (const char* expected : {"connectionrefusederror", "connect", "refus", "error", "cudnn_status_bad_param", "cudnn",
                               "param", "aadst", "700016"}) {
    EXPECT_TRUE(Has(w, expected)) << expected;
  }
}

// Go, Java, Node and OpenSSL each say "the certificate is not trusted" in
// their own words; each wording holds the family's word. Messages from
// https://github.com/docker-library/hello-world/issues/86 and
// https://github.com/kubernetes/kubectl/issues/1059 (kubectl's refusal).
TEST(TextWords, PhrasesOfOneErrorShareTheirFamilysWord) {
  for (const char* text : {"Get https://registry-1.docker.io/v2/: x509: certificate signed by unknown authority",
                           "SSL certificate problem: unable to get local issuer certificate",
                           "PKIX path building failed: unable to find valid certification path to requested target",
                           "Error: unable to verify the first certificate", "code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'",
                           "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed (_ssl.c:1129)"}) {
    EXPECT_TRUE(Has(MessageWords(text), "~tls-untrusted")) << text;
  }
  // Other families, each phrase as a tool prints it around its values.
  const std::vector<std::pair<const char*, const char*>> said = {
      {"\tsize mismatch for layers.1.blocks.1.op.Ds: copying a param with shape torch.Size([768]) from checkpoint",
       "~state-dict-mismatch"},
      {"RuntimeError: Error(s) in loading state_dict for ResNet:", "~state-dict-mismatch"},
      {"nodejs.ENOSPCError: watch /home/x/app/config ENOSPC", "~file-watch-limit"},
      {"Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'", "~file-watch-limit"},
      {"The Daemon will expire after the build after running out of JVM Metaspace.", "~jvm-metaspace"},
      {"Error response from daemon: manifest for nginx:9.9 not found: manifest unknown", "~image-manifest-missing"},
      {"no matching manifest for linux/arm64/v8 in the manifest list entries", "~image-manifest-missing"},
      {"CUDA error: out of memory", "~cuda-oom"},
      {"cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/THCCachingAllocator.cpp:510", "~cuda-oom"},
  };
  for (const auto& [text, family] : said) EXPECT_TRUE(Has(MessageWords(text), family)) << text;
  // In order, with a few other words among them (a host and port masked
  // or not), but not scattered over a sentence or out of order.
  EXPECT_TRUE(Has(MessageWords("The connection to the server localhost:8080 was refused - did you specify the right "
                               "host or port?"),
                  "=conn-refused"));
  EXPECT_FALSE(Has(MessageWords("the certificate was signed by hand, by an authority we do not know, unknown to us"),
                   "~tls-untrusted"));
  EXPECT_FALSE(Has(MessageWords("refused connection"), "=conn-refused"));
  EXPECT_FALSE(Has(MessageWords("certificate signed by a known authority"), "~tls-untrusted"));
  // A symptom family is not an error family: many errors refuse connections.
  EXPECT_TRUE(util::IsErrorFamily("~tls-untrusted"));
  EXPECT_FALSE(util::IsErrorFamily("=conn-refused"));
  EXPECT_FALSE(util::IsErrorFamily("connect"));
  // Search reads the words a query spells, not families.
  bool family = false;
  util::ForEachWordWithValues("x509: certificate signed by unknown authority",
                              [&](std::string_view w) { family = family || w[0] == '~'; });
  EXPECT_FALSE(family);
}

TEST(TextWords, CodesNameTheError) {
  EXPECT_EQ(MessageCodes("npm ERR! code ERESOLVE"), std::vector<std::string>({"eresolve"}));
  EXPECT_EQ(MessageCodes("src/a.ts(3,10): error TS2307: Cannot find module"), std::vector<std::string>({"ts2307"}));
  EXPECT_EQ(MessageCodes("java.lang.NullPointerException: x"), std::vector<std::string>({"nullpointerexception"}));
  // A numbered code also names its family, as patterns write it.
  EXPECT_EQ(MessageCodes("AADSTS700016: Application not found"), std::vector<std::string>({"aadsts", "aadsts700016"}));
  // Ordinary words and levels are not codes.
  EXPECT_TRUE(MessageCodes("ERROR: the build failed; see the Log").empty());
}

TEST(TextWords, PatternsSpellTheirLiterals) {
  EXPECT_EQ(PatternText(R"((?P<code>AADSTS\d+)|Application not found.*tenant)"),
            " AADSTS    Application not found  tenant");
  EXPECT_TRUE(Has(util::PatternWords(R"(ERR_[A-Z]+|npm ERR! code E\d{3})"), "npm"));
  EXPECT_FALSE(Has(util::PatternWords(R"([a-z]{3,}foo)"), "az"));
}

KnowledgeBase Kb(std::vector<Record> records) { return KnowledgeBase::FromRecords(std::move(records)); }

TEST(SignatureIndex, SignatureAndAliasesAreReadEachOnItsOwn) {
  Record r = testing::MakeRecord("t/oom", "CUDA out of memory. Tried to allocate 2.00 GiB", "CUDA out of memory");
  r.aliases = {"RuntimeError: CUDA error: out of memory", "cuda runtime error (2) : out of memory"};
  KnowledgeBase kb = Kb({r, testing::MakeRecord("t/other", "Segmentation fault (core dumped)", "Segmentation fault")});
  match::SignatureIndex index(kb);
  // An alias said alone reads like the record as much as its signature does:
  // the other phrases do not dilute it.
  EXPECT_DOUBLE_EQ(index.Similarity(index.Words("RuntimeError: CUDA error: out of memory"), 0), 1.0);
  EXPECT_DOUBLE_EQ(index.Similarity(index.Words("CUDA out of memory. Tried to allocate 8.00 GiB"), 0), 1.0);
  EXPECT_LT(index.Similarity(index.Words("Segmentation fault"), 0), 0.2);
  // Measure gives the same figures in one go.
  auto words = index.Words("RuntimeError: CUDA error: out of memory while loading");
  auto m = index.Measure(words, 0);
  EXPECT_DOUBLE_EQ(m.similarity, index.Similarity(words, 0));
  EXPECT_DOUBLE_EQ(m.recall, index.Recall(words, 0));
  EXPECT_DOUBLE_EQ(m.explained, index.Explained(words, 0));
  EXPECT_DOUBLE_EQ(m.resemblance, index.Resemblance(words, 0));
  EXPECT_LT(m.explained, 1.0);  // "loading" is foreign to the record
}

TEST(SignatureIndex, AQuotedMessageWithoutItsValuesAndDetailsStillReadsLikeTheRecord) {
  // The corpus's scenario: people quote PHP's message without the sizes and
  // without the bracketed detail.
  Record php = testing::MakeRecord(
      "php/memory", "Fatal error: Allowed memory size of 134217728 bytes exhausted (tried to allocate 65536 bytes)",
      R"(Allowed memory size of \d+ bytes exhausted)");
  KnowledgeBase kb = Kb({php, testing::MakeRecord("t/other", "Segmentation fault (core dumped)", "Segmentation fault")});
  match::SignatureIndex index(kb);
  auto words = index.Words("PHP Fatal error: Allowed memory size exhausted");
  // Six of the nine words outside the brackets (all 14 words: under half).
  EXPECT_GT(index.Recall(words, 0), 0.65);
  EXPECT_DOUBLE_EQ(index.Measure(words, 0).recall, index.Recall(words, 0));
  // The record's sizes are values: the same line with other sizes reads
  // like it all but fully, and without them it loses little.
  auto other_sizes = index.Words("Fatal error: Allowed memory size of 268435456 bytes exhausted (tried to allocate 4096 bytes)");
  EXPECT_GT(index.Similarity(other_sizes, 0), 0.9);
  // The bracketed detail counts for recall only: similarity is still read
  // against the whole signature.
  EXPECT_LT(index.Similarity(words, 0), 0.8);
}

TEST(SignatureIndex, DomainCuesPointAtTheDomainThatUsesTheWords) {
  auto rec = [](std::string id, std::string domain, std::string sig) {
    Record r = testing::MakeRecord(std::move(id), std::move(sig), "x^");
    r.domain = std::move(domain);
    return r;
  };
  KnowledgeBase kb = Kb({rec("node/a", "node", "npm ERR! code EACCES permission denied"),
                         rec("node/b", "node", "npm ERR! ERESOLVE unable to resolve dependency tree"),
                         rec("docker/a", "docker", "docker: permission denied while trying to connect"),
                         rec("docker/b", "docker", "Error response from daemon: pull access denied")});
  match::SignatureIndex index(kb);
  const auto& cues = index.domains();
  auto affinity = cues.Affinity(index.Words("npm ERR! Error: EACCES: permission denied, access '/usr/lib'"));
  EXPECT_DOUBLE_EQ(affinity[cues.DomainOf(0)], 1.0);  // node: "npm", "ERR!", "EACCES"
  EXPECT_LT(affinity[cues.DomainOf(2)], 1.0);         // docker shares "permission denied", "access"
  EXPECT_TRUE(index.CodesAgree(index.Words("npm ERR! code EACCES"), 0));
  EXPECT_FALSE(index.CodesAgree(index.Words("npm ERR! code ENOENT"), 0));
}

// Nearest skips records whose bound cannot beat the k-th best so far. With
// room for every record nothing is skipped, so the k best must be the first
// k of that list, each with the measures a candidate reuses.
TEST(SignatureIndex, NearestSkipsOnlyRecordsThatCannotRank) {
  std::string kb_path = (testing::SourceDir() / "kb").string();
  auto kb = KnowledgeBase::Load(kb_path, LoadOptions{});
  ASSERT_TRUE(kb.ok());
  match::SignatureIndex index(kb.value());
  for (const char* text : {"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
                           "NCCL watchdog caught collective operation timeout", "cuDNN error: CUDNN_STATUS_BAD_PARAM",
                           "DataLoader worker (pid 4242) is killed by signal: Killed.",
                           "RuntimeError: Expected all tensors to be on the same device, cuda:0 and cpu"}) {
    const auto words = index.Words(text);
    const auto every = index.Nearest(words, kb.value().size(), 0.1);
    ASSERT_GE(every.size(), 3u) << text;
    for (std::size_t i = 0; i < every.size(); ++i) {
      EXPECT_EQ(every[i].measures, index.Measure(words, every[i].record)) << text;
      if (i > 0) {
        EXPECT_GE(every[i - 1].measures.resemblance, every[i].measures.resemblance) << text;
      }
    }
    for (std::size_t k = 1; k <= 5; ++k) {
      const auto best = index.Nearest(words, k, 0.1);
      ASSERT_EQ(best.size(), std::min(k, every.size())) << text;
      EXPECT_TRUE(std::equal(best.begin(), best.end(), every.begin())) << text << " k=" << k;
    }
  }
}

// The index read back from the cache answers as the one built, and a
// damaged file is rebuilt, never trusted.
TEST(SignatureIndex, TheCachedIndexIsTheBuiltOne) {
  std::string kb_path = (testing::SourceDir() / "kb").string();
  auto kb = KnowledgeBase::Load(kb_path, LoadOptions{});
  ASSERT_TRUE(kb.ok());
  testing::TempDir cache;
  const std::string dir = cache.path().string();
  match::SignatureIndex built(kb.value());
  auto first = match::SignatureIndex::Open(kb.value(), dir);  // builds and writes
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  auto read = match::SignatureIndex::Open(kb.value(), dir);  // reads
  const std::vector<std::string> texts = {"RuntimeError: CUDA error: out of memory",
                                          "npm ERR! code EACCES permission denied",
                                          "NCCL watchdog timeout on rank 3 ncclInternalError"};
  auto same = [&](const match::SignatureIndex& a) {
    for (const auto& t : texts) {
      auto wa = a.Words(t), wb = built.Words(t);
      ASSERT_EQ(wa.known, wb.known) << t;
      ASSERT_EQ(wa.codes, wb.codes) << t;
      for (std::size_t i = 0; i < kb.value().size(); ++i) {
        auto ma = a.Measure(wa, i), mb = built.Measure(wb, i);
        ASSERT_DOUBLE_EQ(ma.similarity, mb.similarity);
        ASSERT_DOUBLE_EQ(ma.recall, mb.recall);
        ASSERT_EQ(a.CodesAgree(wa, i), built.CodesAgree(wb, i));
        ASSERT_EQ(a.domains().DomainOf(i), built.domains().DomainOf(i));
      }
      ASSERT_EQ(a.domains().Affinity(wa), built.domains().Affinity(wb));
      ASSERT_EQ(a.Nearest(wa, 5, 0.2), built.Nearest(wb, 5, 0.2));
    }
  };
  same(*read);
  // A flipped byte: the checksum refuses it and the index is built again.
  std::string bytes = testing::ReadFile(files[0]);
  bytes[bytes.size() / 2] ^= 0x5a;
  { std::ofstream(files[0], std::ios::binary) << bytes; }
  auto rebuilt = match::SignatureIndex::Open(kb.value(), dir);
  same(*rebuilt);
}

TEST(LineKinds, WarningsWrappersAndFailures) {
  using logs::IsWarningLine;
  using logs::IsWrapperLine;
  using logs::StatesFailure;
  for (const char* w : {"WARNING: Retrying (Retry(total=4)) after connection broken by 'ConnectTimeoutError'",
                        "npm WARN deprecated inflight@1.0.6: This module is not supported",
                        "  193:31  warning  React Hook useEffect has a missing dependency: 'ref'",
                        "/app/x.py:12: DeprecationWarning: datetime.utcnow() is deprecated"}) {
    EXPECT_TRUE(IsWarningLine(w)) << w;
  }
  // Kubernetes shows a pod's failure as an event row of type Warning.
  EXPECT_FALSE(IsWarningLine("  Warning  BackOff  3m (x12 over 5m)  kubelet  Back-off restarting failed container"));
  for (const char* w : {"Process completed with exit code 1.", "ERROR: Job failed: exit code 1",
                        "error Command failed with exit code 1.", "error: subprocess-exited-with-error",
                        "#12 ERROR: process \"/bin/sh -c make\" did not complete successfully: exit code: 2",
                        "make: *** [Makefile:36: all] Error 2",
                        "wandb: Waiting for W&B process to finish... (failed 1). Press Control-C to abort syncing.",
                        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."}) {
    EXPECT_TRUE(IsWrapperLine(w)) << w;
  }
  EXPECT_FALSE(IsWrapperLine("OSError: CUDA_HOME environment variable is not set"));
  for (const char* f : {"x509: certificate signed by unknown authority", "Reason: CrashLoopBackOff",
                        "The connection to the server localhost:8080 was refused", "ConnectionRefusedError: x",
                        // https://github.com/scottalford75/Remora-RT1052-cpp/issues/1
                        "arm-none-eabi/bin/ld: remora-rt1052-cpp.axf section `.text' will not fit in region `BOARD_FLASH'",
                        "arm-none-eabi/bin/ld: region `BOARD_FLASH' overflowed by 59184 bytes",
                        // https://github.com/network-quality/goresponsiveness/issues/6
                        "lbc/lbc.go:27:2: missing go.sum entry for module providing package golang.org/x/net/http2"}) {
    EXPECT_TRUE(StatesFailure(f)) << f;
  }
  for (const char* f : {"Checking out 5bb35ccb as detached HEAD", "libssl-dev liberror-perl pkg-config",
                        "Compiling error_handler.py", "tests/test_errors.py::test_raises PASSED",
                        "server_test.go:12: listening on :8080"}) {
    EXPECT_FALSE(StatesFailure(f)) << f;
  }
  // Source code a traceback quotes names exceptions without reporting one.
  // https://github.com/facebookresearch/detectron2/issues/460 and
  // https://github.com/keras-team/keras/issues/9643
  for (const char* c : {"    raise AssertionError(\"Torch not compiled with CUDA enabled\")",
                        "   1372         except KeyError:", "-> 1374       raise type(e)(node_def, op, message)",
                        "----> 3 raise ValueError(x)", "  throw new Error('boom');",
                        // Code frames, whatever their code says (Babel, rustc).
                        "> 60 |   this.setState({ error });", "  59 | onPublishError = error => {",
                        "4 |     let x: Result<i32, Error> = Err(e);"}) {
    EXPECT_TRUE(logs::IsSourceLine(c)) << c;
  }
  for (const char* c : {"AssertionError: Torch not compiled with CUDA enabled", "404 Not Found: raise limits",
                        "RuntimeError: exception raised in worker", "Exception: raise failed",
                        "| 1 | error | build failed |", "web-1  | Error: connect ECONNREFUSED 127.0.0.1:5432"}) {
    EXPECT_FALSE(logs::IsSourceLine(c)) << c;
  }
  // A warning that names an error reports one at a warning level.
  // https://github.com/meteor/meteor/issues/6279, and podman pulling past
  // Docker Hub's limit.
  for (const char* w : {"[Wed Feb 24 2016 01:08:57 GMT+0000 (UTC)] WARNING MongoError: E11000 duplicate key error",
                        "time=\"2025-02-04T15:51:23-05:00\" level=warning msg=\"Failed, retrying in 2s ... (1/3). "
                        "Error: initializing source docker://debian:bookworm: toomanyrequests\""}) {
    EXPECT_TRUE(IsWarningLine(w) && logs::NamesAnError(w)) << w;
  }
  for (const char* w : {"/app/x.py:12: DeprecationWarning: datetime.utcnow() is deprecated",
                        "WARNING: Retrying (Retry(total=4)) after connection broken by "
                        "'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443)\")'",
                        "warning: unused variable `error`", "npm WARN deprecated request@2.88.2: ErrorHandling moved"}) {
    EXPECT_FALSE(logs::NamesAnError(w)) << w;
  }
  // A passing test's name is no failure, whatever it says; a failing one is.
  for (const char* f : {"    \u2713 shows the error state when the request fails (58 ms)",
                        "PASS src/components/ErrorBoundary.test.ts (4.829 s)", "--- PASS: TestConnectionRefused (0.00s)",
                        "tests/test_io.py::test_timeout_error PASSED                    [ 40%]"}) {
    EXPECT_FALSE(StatesFailure(f)) << f;
  }
  for (const char* f : {"    \u2715 shows the error state when the request fails (58 ms)",
                        "FAIL src/components/ErrorBoundary.test.ts (4.829 s)", "--- FAIL: TestConnectionRefused (0.00s)",
                        "tests/test_io.py::test_timeout_error FAILED                    [ 40%]"}) {
    EXPECT_TRUE(StatesFailure(f)) << f;
  }
}

}  // namespace
}  // namespace kedb

namespace kedb {
namespace {

Record WithFixes(std::vector<std::string> actions, std::string how = "") {
  Record r;
  r.id = "x/y";
  for (auto& a : actions) {
    Workaround w;
    w.action = std::move(a);
    w.how = how;
    r.workarounds.push_back(std::move(w));
  }
  return r;
}

// Whether `text` quotes one of `record`'s fixes, read afresh.
bool QuotesFix(const Record& record, std::string_view text) {
  return match::FixQuotes().Quotes(0, record, text);
}

TEST(FixQuote, CodeFragmentsOfWorkaroundsAreFixes) {
  const Record r = WithFixes({"Set pad_token to eos_token: tokenizer.pad_token = tokenizer.eos_token",
                              "Add special tokens: tokenizer.add_special_tokens({\"pad_token\":\"[PAD]\"})",
                              "Retry with `npm install --legacy-peer-deps`.",
                              "Install the types: npm i @types/node"});
  const std::vector<std::string> f = match::FixFragments(r);
  for (const char* want : {"tokenizer.pad_token", "tokenizer.eos_token", "tokenizer.add_special_tokens",
                           "--legacy-peer-deps", "@types/node"}) {
    EXPECT_TRUE(std::find(f.begin(), f.end(), want) != f.end()) << want;
  }
  // Short names, plain words and sentence punctuation are not fragments.
  EXPECT_TRUE(std::find(f.begin(), f.end(), "pad_token") == f.end());
  EXPECT_TRUE(std::find(f.begin(), f.end(), "eos_token:") == f.end());
}

TEST(FixQuote, FileNamesHostsAndPathsAreNotFixes) {
  const Record r = WithFixes({"Delete node_modules/.cache and package-lock.json, then edit CMakeLists.txt",
                              "Download it again from https://huggingface.co/models or huggingface.co",
                              "Source install/setup.bash again"});
  EXPECT_EQ(match::FixFragments(r), std::vector<std::string>{});
}

TEST(FixQuote, ATextQuotesAFixWhenItHoldsAFragment) {
  // transformers' own message (github.com/LianjiaTech/BELLE/issues/103).
  const std::string text =
      "ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use as "
      "`pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)` or add a new pad token via "
      "`tokenizer.add_special_tokens({'pad_token': '[PAD]'})`.";
  EXPECT_TRUE(QuotesFix(WithFixes({"Set it: tokenizer.pad_token = tokenizer.eos_token"}), text));
  EXPECT_TRUE(QuotesFix(WithFixes({"Add a padding token"}, "call tokenizer.add_special_tokens() first"), text));
  EXPECT_FALSE(QuotesFix(WithFixes({"Pass attention_mask=inputs.attention_mask to generate()"}), text));
  EXPECT_FALSE(QuotesFix(WithFixes({}), text));
  // A package named in a path is the one the fix installs.
  EXPECT_TRUE(QuotesFix(WithFixes({"Install the types: npm i -D @types/react"}),
                               "node_modules/@types/react/index.d.ts(3100,14): error TS2300"));
}

// The engine's kept fragments answer as reading them afresh does, record
// by record, however many records pass through (the cap drops and reads
// again).
TEST(FixQuote, KeptFragmentsAnswerAsFreshOnes) {
  const Record pad = WithFixes({"Set it: tokenizer.pad_token = tokenizer.eos_token"});
  const Record peer = WithFixes({"Retry with npm install --legacy-peer-deps"});
  const std::string text = "npm ERR! Fix the upstream dependency conflict, or retry with --legacy-peer-deps";
  match::FixQuotes quotes;
  for (int round = 0; round < 2; ++round) {
    EXPECT_FALSE(quotes.Quotes(0, pad, text));
    EXPECT_TRUE(quotes.Quotes(1, peer, text));
  }
  for (std::size_t i = 2; i < match::FixQuotes::kMaxKept + 10; ++i) quotes.Quotes(i, pad, text);
  EXPECT_TRUE(quotes.Quotes(1, peer, text));
  EXPECT_FALSE(quotes.Quotes(0, pad, text));
}

}  // namespace
}  // namespace kedb
