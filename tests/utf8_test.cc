// UTF-8 decoding is shared by the regex parser, the log cleaner and the
// search tokenizer; each treats a 0 length as "not text" and must be able to
// trust it.

#include "util/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace kedb::util {
namespace {

// The length DecodeUtf8 reports at the start of `bytes`, and the code point.
std::pair<std::size_t, char32_t> Decode(std::string_view bytes) {
  char32_t c = 0xFFFFFFFF;
  std::size_t n = DecodeUtf8(bytes, 0, &c);
  return {n, n == 0 ? 0xFFFFFFFF : c};
}

TEST(Utf8, DecodesEachLength) {
  EXPECT_EQ(Decode("A"), std::make_pair(std::size_t{1}, char32_t{'A'}));
  EXPECT_EQ(Decode("\xC3\xA9"), std::make_pair(std::size_t{2}, char32_t{0xE9}));         // é
  EXPECT_EQ(Decode("\xE6\x98\xBE"), std::make_pair(std::size_t{3}, char32_t{0x663E}));   // 显
  EXPECT_EQ(Decode("\xF0\x9F\x94\xA5"), std::make_pair(std::size_t{4}, char32_t{0x1F525}));
}

TEST(Utf8, RejectsWhatIsNotUtf8) {
  EXPECT_EQ(Decode("\x80").first, 0u);              // stray continuation byte
  EXPECT_EQ(Decode("\xC0\x80").first, 0u);          // overlong NUL
  EXPECT_EQ(Decode("\xE0\x80\xAF").first, 0u);      // overlong '/'
  EXPECT_EQ(Decode("\xED\xA0\x80").first, 0u);      // a surrogate
  EXPECT_EQ(Decode("\xF4\x90\x80\x80").first, 0u);  // past U+10FFFF
  EXPECT_EQ(Decode("\xF8\x90\x80\x80").first, 0u);  // no lead byte is 0xF8 or above
  EXPECT_EQ(Decode("\xFF").first, 0u);
  EXPECT_EQ(Decode("\xE6\x98").first, 0u);          // cut short by the end of the text
  EXPECT_EQ(Decode("\xE6" "A" "\xBE").first, 0u);   // cut short by an ASCII byte
}

TEST(Utf8, AppendThenDecodeGivesTheCodePointBack) {
  for (char32_t c : {char32_t{0}, char32_t{0x7F}, char32_t{0x80}, char32_t{0x7FF}, char32_t{0x800},
                     char32_t{0xFFFF}, char32_t{0x10000}, char32_t{0x10FFFF}}) {
    std::string s;
    AppendUtf8(&s, c);
    char32_t back = 0;
    ASSERT_EQ(DecodeUtf8(s, 0, &back), s.size()) << std::hex << static_cast<uint32_t>(c);
    EXPECT_EQ(back, c);
  }
}

}  // namespace
}  // namespace kedb::util
