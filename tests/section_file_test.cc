// Cache files used in place (util/section_file.h): what is written reads
// back, a damaged small file is refused on open, and a damaged block of a
// large one stops the process when it is first read, never answering from
// it.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"
#include "util/binary_io.h"
#include "util/section_file.h"

namespace kedb {
namespace {

namespace fs = std::filesystem;
using util::Array;
using util::SectionFile;
using util::SectionWriter;
using util::StringTable;

// A word table, then two blocks and more of numbers.
std::string WriteSample() {
  SectionWriter w;
  StringTable::Write({"npm", "cuda", "", "CUDNN_STATUS_BAD_PARAM"}, &w);
  w.Add(std::vector<double>{0.5, 1.5});
  w.Add(std::vector<uint16_t>{});
  std::vector<uint32_t> numbers(40000);
  for (uint32_t i = 0; i < numbers.size(); ++i) numbers[i] = i * 3;
  w.Add(numbers);
  return w.Finish("KEDBTEST", 42);
}

void Flip(const std::string& path, std::size_t at) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  std::fseek(f, static_cast<long>(at), SEEK_SET);
  const int c = std::fgetc(f);
  std::fseek(f, static_cast<long>(at), SEEK_SET);
  std::fputc(c ^ 0x5a, f);
  std::fclose(f);
}

TEST(SectionFile, ReadsBackWhatWasWritten) {
  testing::TempDir dir;
  const std::string path = (dir.path() / "sample.bin").string();
  ASSERT_TRUE(util::WriteFileAtomically(path, WriteSample()));
  auto file = SectionFile::Open(path, "KEDBTEST", 42);
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(file->sections(), 6u);
  Array<uint32_t> numbers;
  Array<double> halves;
  Array<uint16_t> none;
  ASSERT_TRUE(file->Get(5, &numbers));
  ASSERT_TRUE(file->Get(3, &halves));
  ASSERT_TRUE(file->Get(4, &none));
  // A section read as a type its size is not a multiple of is refused:
  // the words' 29 bytes are no array of uint32_t.
  Array<uint32_t> wrong;
  EXPECT_FALSE(file->Get(0, &wrong));
  EXPECT_FALSE(file->Get(6, &wrong));  // no such section
  ASSERT_EQ(numbers.size(), 40000u);
  EXPECT_EQ(numbers[39999], 119997u);
  EXPECT_EQ(numbers.Slice(10, 12)[1], 33u);
  EXPECT_EQ(halves[1], 1.5);
  EXPECT_TRUE(none.empty());
  StringTable words;
  ASSERT_TRUE(words.Bind(*file, 0));
  EXPECT_EQ(words.size(), 4u);
  EXPECT_EQ(words.Find("cuda"), 1);
  EXPECT_EQ(words.Find(""), 2);
  EXPECT_EQ(words.Find("CUDNN_STATUS_BAD_PARAM"), 3);
  EXPECT_EQ(words.Find("docker"), -1);
  EXPECT_EQ(words.At(0), "npm");
  // Another magic or key is another file.
  EXPECT_EQ(SectionFile::Open(path, "KEDBTEST", 43), nullptr);
  EXPECT_EQ(SectionFile::Open(path, "KEDBELSE", 42), nullptr);
  // A truncated file is refused.
  std::string bytes = testing::ReadFile(path);
  testing::WriteFile(path, bytes.substr(0, bytes.size() - 100));
  EXPECT_EQ(SectionFile::Open(path, "KEDBTEST", 42), nullptr);
}

TEST(SectionFile, ADamagedSmallFileIsRefusedOnOpen) {
  testing::TempDir dir;
  const std::string path = (dir.path() / "sample.bin").string();
  const std::string bytes = WriteSample();
  ASSERT_TRUE(util::WriteFileAtomically(path, bytes));
  Flip(path, bytes.size() - 30);  // in the numbers
  EXPECT_EQ(SectionFile::Open(path, "KEDBTEST", 42), nullptr);
  // The tables at the front have a checksum of their own.
  ASSERT_TRUE(util::WriteFileAtomically(path, bytes));
  Flip(path, 20);
  EXPECT_EQ(SectionFile::Open(path, "KEDBTEST", 42), nullptr);
}

TEST(SectionFile, ADamagedBlockOfALargeFileStopsTheProcessWhenRead) {
  testing::TempDir dir;
  const std::string path = (dir.path() / "sample.bin").string();
  const std::string bytes = WriteSample();
  ASSERT_TRUE(util::WriteFileAtomically(path, bytes));
  // Opened as a large file is: only the tables are checked.
  auto file = SectionFile::Open(path, "KEDBTEST", 42, /*check_whole_below=*/0);
  ASSERT_NE(file, nullptr);
  Array<uint32_t> numbers;
  ASSERT_TRUE(file->Get(5, &numbers));
  StringTable words;
  ASSERT_TRUE(words.Bind(*file, 0));
  // Damage the last number (in the third 64 KB block) after the file was
  // opened.
  Flip(path, bytes.size() - 1);
  EXPECT_EQ(numbers[5], 15u);  // the first block is intact
  EXPECT_EQ(words.Find("cuda"), 1);
  EXPECT_EXIT(numbers[39999], ::testing::ExitedWithCode(70), "cache file .*sample.bin is damaged");
  EXPECT_FALSE(fs::exists(path));
}

// A cache file half written by a process that is gone (killed, or a server
// that stopped without waiting for a compile behind it) is deleted when its
// kind is next pruned; one being written by a live process is not.
TEST(PruneCacheFiles, DeletesTemporaryFilesOfProcessesThatAreGone) {
  testing::TempDir dir;
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const fs::path gone = dir.path() / ("patterns-aa.bin.tmp" + std::to_string(child));
  const fs::path alive = dir.path() / ("patterns-bb.bin.tmp" + std::to_string(::getpid()));
  const fs::path other = dir.path() / ("signatures-cc.bin.tmp" + std::to_string(child));
  for (const fs::path& p : {gone, alive, other}) testing::WriteFile(p, "partial");
  testing::WriteFile(dir.path() / "patterns-dd.bin", "whole");
  util::PruneCacheFiles(dir.path().string(), "patterns-", 4);
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_TRUE(fs::exists(alive));
  EXPECT_TRUE(fs::exists(other)) << "another kind of cache is pruned with its own kind";
  EXPECT_TRUE(fs::exists(dir.path() / "patterns-dd.bin"));
}

}  // namespace
}  // namespace kedb
