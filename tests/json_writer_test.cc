// JsonWriter must write what nlohmann's dump writes for the same values, so
// replacing a JSON tree by the writer changes no reply by a byte.
#include "util/json_writer.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kedb::util {
namespace {

using Json = nlohmann::ordered_json;

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

TEST(JsonWriterTest, StringsAreEscapedAsNlohmannDoes) {
  const std::string cases[] = {
      "",
      "plain ASCII",
      "quote \" backslash \\ slash /",
      std::string("controls \b\f\n\r\t \x01\x1f end"),
      std::string("nul \0 inside", 12),
      "DEL \x7f stays",
      "中文 · ×2 — 😀",
  };
  for (const std::string& s : cases) {
    JsonWriter w;
    w.String(s);
    EXPECT_EQ(w.Take(), Dump(Json(s))) << s;
  }
}

TEST(JsonWriterTest, InvalidUtf8BecomesReplacementCharacters) {
  JsonWriter w;
  w.String("a\xff" "b\xc3");  // a stray byte, then a truncated sequence at the end
  std::string out = w.Take();
  EXPECT_EQ(out, "\"a\xEF\xBF\xBD" "b\xEF\xBF\xBD\"");
  EXPECT_NO_THROW(Json::parse(out));
}

TEST(JsonWriterTest, NumbersAreFormattedAsNlohmannDoes) {
  const double doubles[] = {0.0, 1.0, -2.5, 0.1, 0.5204, 1e-7, 123456789.125, 1e21, 1.0 / 3, -0.0};
  for (double d : doubles) {
    JsonWriter w;
    w.Double(d);
    EXPECT_EQ(w.Take(), Dump(Json(d))) << d;
  }
  JsonWriter w;
  w.BeginArray().Double(std::nan("")).Double(std::numeric_limits<double>::infinity()).Int(-3).UInt(18446744073709551615u);
  w.EndArray();
  EXPECT_EQ(w.Take(), "[null,null,-3,18446744073709551615]");
}

TEST(JsonWriterTest, NestingAndCommasMatchATree) {
  JsonWriter w;
  w.BeginObject().Field("a", 1).Key("b").BeginArray();
  w.BeginObject().EndObject().BeginArray().EndArray().Bool(true).Null();
  w.EndArray().Key("c").BeginObject().Field("d", "e").Field("f", false).EndObject().EndObject();
  Json tree{{"a", 1}, {"b", {Json::object(), Json::array(), true, nullptr}}, {"c", {{"d", "e"}, {"f", false}}}};
  EXPECT_EQ(w.Take(), Dump(tree));
}

// A front end wraps an answer it holds as text (an indented record file, a
// renderer's line) without parsing it: the splice must be what a parse and
// a compact dump would give, on one line, with blanks inside strings kept.
TEST(JsonWriterTest, RawSplicesAValueAsACompactDumpWouldWriteIt) {
  Json value{{"id", "a/b"},
             {"text", "two  spaces, a tab\t, a newline\n, \"quoted: [x, y]\" and a \\"},
             {"list", {1, 2.5, nullptr, true, Json::object(), Json::array()}},
             {"nested", {{"中文", "键 值"}}}};
  for (int indent : {-1, 2, 4}) {
    JsonWriter w;
    w.BeginObject().Field("before", 1).Key("value").Raw(value.dump(indent) + "\n").Field("after", 2).EndObject();
    std::string out = w.Take();
    EXPECT_EQ(out, Dump(Json{{"before", 1}, {"value", value}, {"after", 2}})) << indent;
    EXPECT_EQ(out.find('\n'), std::string::npos);
  }
  JsonWriter list;
  list.BeginArray().Raw("{ }").Raw(" [1, 2] ").Raw("\"a b\"").EndArray();
  EXPECT_EQ(list.Take(), "[{},[1,2],\"a b\"]");
}

}  // namespace
}  // namespace kedb::util
