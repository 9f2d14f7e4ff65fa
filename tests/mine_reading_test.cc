// How the miner reads what people write: the opening post under a title,
// output set off as a quote, the phrase a pattern is made of, and causes
// and fixes said without the usual cue phrases. Each case is shaped like
// a real thread (addresses in tools/eval/mine_tuning_threads.jsonl).
#include <algorithm>

#include <gtest/gtest.h>

#include "mine/draft.h"
#include "mine/post_parts.h"
#include "mine/signatures.h"
#include "mine/suggestions.h"
#include "mine/thread.h"
#include "regex/pcre2_regex.h"

namespace kedb {
namespace {

std::vector<mine::PostParts> Parts(const mine::Thread& t) {
  std::vector<mine::PostParts> parts;
  for (const mine::Post& p : t.posts) parts.push_back(mine::SplitPost(p.body));
  return parts;
}

bool Matches(const std::string& pattern, const std::string& line) {
  auto compiled = regex::CompilePython(pattern);
  EXPECT_TRUE(compiled.ok()) << pattern;
  return compiled.ok() && compiled->Search(line);
}

TEST(MineReading, TheFirstPostUnderATitleIsTheOpeningPost) {
  auto t = mine::ReadTextThread(
      "# Installation fails on Windows 11\n\nalice commented on 2023-01-25\nIt stops.\n\n"
      "bob commented on 2023-01-26\nWhich Python?\n");
  EXPECT_EQ(t.title, "Installation fails on Windows 11");
  ASSERT_EQ(t.posts.size(), 2u);
  EXPECT_EQ(t.posts[0].author, "alice");
  EXPECT_EQ(t.posts[0].body, "It stops.\n\n");
  EXPECT_TRUE(t.posts[0].by_reporter);
  EXPECT_EQ(t.posts[1].author, "bob");
}

TEST(MineReading, AQuoteInTheOpeningPostIsItsOutput) {
  auto t = mine::ReadTextThread(
      "alice commented on 2023-01-25\nBuilding the wheel stops with\n\n"
      ">  error: Microsoft Visual C++ 14.0 or greater is required.\n\n"
      "bob commented on 2023-01-26\n> error: Microsoft Visual C++ 14.0 or greater is required.\nWhich Python is it?\n");
  mine::ThreadText text = mine::ReadPosts(t);
  ASSERT_EQ(text.scan_text.size(), 2u);
  EXPECT_NE(text.scan_text[0].find("error: Microsoft Visual C++"), std::string::npos);
  EXPECT_EQ(text.scan_text[1].find("Microsoft"), std::string::npos);  // a reply's quote repeats the report
  auto out = std::find_if(text.output_lines.begin(), text.output_lines.end(),
                          [](const mine::ThreadLine& l) { return l.text.starts_with("error: Microsoft"); });
  ASSERT_NE(out, text.output_lines.end());
  EXPECT_EQ(out->post, 0u);
  EXPECT_EQ(out->line, 3u);
}

TEST(MineReading, APhraseIsTheMessageWithoutItsClassAndValues) {
  // The class in front is left out: pasted reports often drop it.
  const std::string cuda_version = mine::PhrasePattern(
      "RuntimeError: The detected CUDA version (11.2) mismatches the version that was used to compile PyTorch (10.2). "
      "Please make sure to use the same CUDA versions.");
  EXPECT_TRUE(Matches(cuda_version, "The detected CUDA version (12.1) mismatches the version that was used to compile"));
  EXPECT_FALSE(Matches(cuda_version, "Please make sure to use the same CUDA versions."));
  // A number and its unit are one value; two values end the phrase, which
  // keeps to one sentence.
  EXPECT_EQ(mine::PhrasePattern("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity)"),
            R"(CUDA\s+out\s+of\s+memory)");
  // key=value settings are values.
  EXPECT_EQ(mine::PhrasePattern("[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=18231, "
                                "OpType=ALLREDUCE, NumelIn=1) ran for 1800043 milliseconds before timing out."),
            R"(Watchdog\s+caught\s+collective\s+operation\s+timeout)");
  // A lone value inside the message becomes \S+.
  const std::string provider = mine::PhrasePattern(
      "Error: No available provider \"azure\" plugins are compatible with this Terraform version.");
  EXPECT_NE(provider.find(R"(provider\s+\S+\s+plugins)"), std::string::npos) << provider;
  EXPECT_TRUE(Matches(provider, "No available provider \"aws\" plugins are compatible with this Terraform version."));
  // Options and file names the failing command was given are values.
  const std::string pip = mine::PhrasePattern(
      "ERROR: Cannot install -r requirements.txt (line 1), -r requirements.txt (line 3) and numpy~=1.24.2 because "
      "these package versions have conflicting dependencies.");
  EXPECT_EQ(pip.find("requirements"), std::string::npos) << pip;
  EXPECT_TRUE(Matches(pip, "ERROR: Cannot install torch==2.0.1 and torchvision because these package versions have "
                           "conflicting dependencies."));
  // When the message is all quoted name, the class is what is left.
  const std::string method = mine::PhrasePattern(
      "java.lang.NoSuchMethodError: 'void org.yaml.snakeyaml.DumperOptions.setIndentWithIndicator(boolean)'");
  EXPECT_NE(method.find("NoSuchMethodError"), std::string::npos) << method;
}

TEST(MineReading, TheErrorQuotedAgainIsNotALineThePatternMustMiss) {
  const std::string error =
      "RuntimeError: The detected CUDA version (11.2) mismatches the version that was used to compile PyTorch (10.2).";
  auto s = mine::BuildSignatures(
      {{error, 0, 4}},
      {{"The detected CUDA version (11.2) mismatches the version that was used to compile PyTorch (10.2).", 2, 1},
       {"I compiled the extension from source.", 1, 1}});
  EXPECT_FALSE(s.regex.empty());
  EXPECT_TRUE(s.false_hits.empty());
  EXPECT_EQ(s.lines_matched, 1u);
}

TEST(MineReading, CausesAndFixesSaidWithoutTheUsualCues) {
  auto t = mine::ReadTextThread(
      "alice commented on 2016-10-10\nCompiling with --target es6 fails with error TS2307.\n\n"
      "bob commented on 2016-10-10\nYou need to explicitly specify \"node\" module resolution, as "
      "[the default](https://www.typescriptlang.org/docs/handbook/compiler-options.html) for the ES6 target is "
      "\"classic\".\n\n"
      "alice commented on 2016-10-11\nIt works fine now after I upgraded to TypeScript 2.1.\n");
  auto c = mine::FindCandidates(t, Parts(t));
  // One sentence gives a fix and its reason: a candidate for each, the
  // link read as its words.
  ASSERT_FALSE(c.root_causes.empty());
  EXPECT_EQ(c.root_causes[0].text,
            "You need to explicitly specify \"node\" module resolution, as the default for the ES6 target is "
            "\"classic\".");
  auto fix = std::find_if(c.workarounds.begin(), c.workarounds.end(),
                          [](const mine::Candidate& w) { return w.post == 1; });
  ASSERT_NE(fix, c.workarounds.end());
  // The reporter names what they did and that it worked: a fix of its own.
  ASSERT_FALSE(c.workarounds.empty());
  EXPECT_EQ(c.workarounds[0].text, "It works fine now after I upgraded to TypeScript 2.1.");
  EXPECT_NE(std::find(c.workarounds[0].evidence.begin(), c.workarounds[0].evidence.end(),
                      "the poster reports it worked"),
            c.workarounds[0].evidence.end());

  // What the user has, said to them, is a cause; a request addressed by
  // name is a fix; "I am using X and it worked" is neither.
  auto t2 = mine::ReadTextThread(
      "alice commented\nThe engine \"node\" is incompatible with this module.\n\n"
      "bob commented\nYou're running Node 10.\n\n"
      "carol commented\n@alice please update your driver.\n\n"
      "dave commented\nI am using a Mac M1 and it worked!\n");
  auto c2 = mine::FindCandidates(t2, Parts(t2));
  ASSERT_FALSE(c2.root_causes.empty());
  EXPECT_EQ(c2.root_causes[0].text, "You're running Node 10.");
  ASSERT_EQ(c2.workarounds.size(), 1u);
  EXPECT_EQ(c2.workarounds[0].text, "@alice please update your driver.");
}

}  // namespace
}  // namespace kedb
