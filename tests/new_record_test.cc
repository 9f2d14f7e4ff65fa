// `kedb new`: a record skeleton from an error text, whose regex matches the
// text it came from and which says when the error is known already.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace kedb {
namespace {

using testing::RunKedb;
using testing::TempDir;

// A traceback as pasted into an issue, for an error no record knows.
const char* kNewError =
    "Traceback (most recent call last):\n"
    "  File \"train.py\", line 3, in <module>\n"
    "    frob.start()\n"
    "FrobError: the frobnicator on /dev/frob0 jammed after 312 cycles (code FROB_E_JAM)\n";

std::string Kb() { return "--kb '" + (testing::SourceDir() / "kb").string() + "'"; }

TEST(NewRecord, ASkeletonWhoseRegexFindsTheErrorItCameFrom) {
  TempDir tmp;
  auto r = RunKedb("new --domain hardware " + Kb(), kNewError);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::ordered_json::parse(r.out);
  EXPECT_EQ(j["id"], "hardware/froberror-frobnicator-dev-frob0-jammed-after");
  EXPECT_EQ(j["signature"],
            "FrobError: the frobnicator on /dev/frob0 jammed after 312 cycles (code FROB_E_JAM)");
  EXPECT_EQ(j["domain"], "hardware");
  EXPECT_EQ(j["root_cause"], "");  // a person's to fill
  EXPECT_TRUE(j["workarounds"].empty());
  EXPECT_NE(r.err.find("Left to fill: root_cause"), std::string::npos) << r.err;
  // The device and the count vary between reports; the pattern lets them.
  const std::string regex = j["regex"];
  EXPECT_NE(regex.find("on\\s+\\S+\\s+jammed"), std::string::npos) << regex;
  // Filled in, it is a record that finds the same error on another device.
  j["root_cause"] = "The feed is blocked.";
  testing::WriteFile(tmp.path() / "kb" / "new.json", j.dump(2));
  EXPECT_EQ(RunKedb("lint --kb '" + (tmp.path() / "kb").string() + "'").exit_code, 0);
  auto m = RunKedb("match --json --kb '" + (tmp.path() / "kb").string() +
                   "' 'FrobError: the frobnicator on /dev/frob3 jammed after 9 cycles (code FROB_E_JAM)'");
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(nlohmann::json::parse(m.out)["matches"][0]["id"], j["id"]);
}

TEST(NewRecord, AKnownErrorIsNamedAndExitsOne) {
  auto r = RunKedb("new " + Kb() + " 'RuntimeError: CUDA error: an illegal memory access was encountered'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("Already known? The text matches these records' patterns:\n  cuda/illegal-memory-access"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["domain"], "cuda");  // the skeleton comes anyway
}

TEST(NewRecord, OutWritesTheFileOnceAndTextWithoutAnErrorIsRefused) {
  TempDir tmp;
  const std::string out = " --out '" + (tmp.path() / "kb").string() + "' --id t/frob-jam";
  auto first = RunKedb("new " + Kb() + out, kNewError);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, "");
  EXPECT_NE(first.err.find("Wrote "), std::string::npos);
  const std::string written = testing::ReadFile(tmp.path() / "kb" / "t" / "frob-jam.json");
  EXPECT_EQ(nlohmann::json::parse(written)["id"], "t/frob-jam");
  auto second = RunKedb("new " + Kb() + out, kNewError);
  EXPECT_EQ(second.exit_code, 2);
  EXPECT_NE(second.err.find("exists; give another --id"), std::string::npos) << second.err;
  EXPECT_EQ(testing::ReadFile(tmp.path() / "kb" / "t" / "frob-jam.json"), written);  // untouched
  auto nothing = RunKedb("new " + Kb() + " 'all 12 tests passed'");
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find("no error line in the text"), std::string::npos) << nothing.err;
}

}  // namespace
}  // namespace kedb
