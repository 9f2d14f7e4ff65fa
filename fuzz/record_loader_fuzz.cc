// Feeds the input to the knowledge-base loader (KnowledgeBase::Load) as the
// text of one record file, and, when it has several lines, also as a JSON
// Lines file. The loader reads from a path only, so the bytes are written
// to a fixed per-process temp folder for each input.
//
// A bug is a crash, a sanitizer report, an exception (Load never stops at a
// broken document), or a broken promise of the loader:
//   - every document read is either loaded or counted as rejected;
//   - every diagnostic names the file and a position inside the input;
//   - a native record keeps its own text exactly;
//   - load-then-save is lossless: a loaded record written back with
//     FormatRecordFile loads again to the same typed record.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "kedb/knowledge_base.h"

namespace {

namespace fs = std::filesystem;

const fs::path& WorkDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("kedb-fuzz-record-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void WriteFile(const fs::path& path, std::string_view bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  FUZZ_CHECK(f != nullptr);
  FUZZ_CHECK(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  std::fclose(f);
}

// The typed fields only: the text and where it came from differ by design.
kedb::Record Typed(kedb::Record r) {
  r.json.clear();
  r.origin = {};
  return r;
}

// Diagnostics point at a line of the input and a column within that line
// (one past its end at most); 0 means "position unknown".
void CheckPosition(const kedb::Diagnostic& d, std::string_view text) {
  FUZZ_CHECK(d.line >= 0 && d.column >= 0);
  if (d.line == 0) return;
  std::size_t start = 0;
  for (int line = 1; line < d.line; ++line) {
    std::size_t nl = text.find('\n', start);
    FUZZ_CHECK(nl != std::string_view::npos);  // the line exists
    start = nl + 1;
  }
  std::size_t end = std::min(text.find('\n', start), text.size());
  FUZZ_CHECK(d.column >= 1 && static_cast<std::size_t>(d.column) <= end - start + 1);
}

kedb::KnowledgeBase LoadChecked(const fs::path& path, std::string_view text, bool jsonl) {
  kedb::LoadReport report;
  auto kb = kedb::KnowledgeBase::Load(path.string(), kedb::LoadOptions{}, &report);
  FUZZ_CHECK(kb.ok());  // the file exists: only strict mode may refuse it
  FUZZ_CHECK(report.documents == report.rejected + report.native + report.deadends);
  FUZZ_CHECK(kb->size() == report.native + report.deadends);
  FUZZ_CHECK(jsonl || report.documents == 1);
  for (const kedb::Diagnostic& d : report.diagnostics) {
    FUZZ_CHECK(d.file == path.string());
    CheckPosition(d, text);
  }
  for (const kedb::Record& r : kb->records()) {
    FUZZ_CHECK(!r.json.empty());
    if (!jsonl && r.origin.format == kedb::Origin::Format::kNative) FUZZ_CHECK(r.json == text);
  }
  return std::move(kb.value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fs::path doc = WorkDir() / "doc.json";
  WriteFile(doc, text);
  kedb::KnowledgeBase kb = LoadChecked(doc, text, /*jsonl=*/false);

  // Load, save, load: the same record.
  const fs::path again = WorkDir() / "again.json";
  for (const kedb::Record& r : kb.records()) {
    const std::string saved = kedb::FormatRecordFile(r);
    WriteFile(again, saved);
    kedb::KnowledgeBase reloaded = LoadChecked(again, saved, /*jsonl=*/false);
    FUZZ_CHECK(reloaded.size() == 1);
    FUZZ_CHECK(Typed(reloaded.records()[0]) == Typed(r));
  }

  if (text.find('\n') != std::string_view::npos && text.find('\n') + 1 < text.size()) {
    const fs::path lines = WorkDir() / "doc.jsonl";
    WriteFile(lines, text);
    LoadChecked(lines, text, /*jsonl=*/true);
  }
  return 0;
}
