// Scanning a log in the tests: an engine over a few records, a log given
// as text.
#pragma once

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kedb/engine.h"
#include "test_util.h"

namespace kedb::testing {

// An engine over the bundled knowledge base, its caches in `cache`.
inline std::shared_ptr<const Engine> Bundled(const TempDir& cache) {
  auto engine = Engine::Open((SourceDir() / "kb").string(), OpenOptions{.cache_dir = cache.path().string()});
  EXPECT_TRUE(engine.ok());
  return engine.ok() ? engine.value() : nullptr;
}

inline ScanResult ScanText(const Engine& engine, const std::string& log) {
  std::istringstream in(log);
  ScanResult result;
  EXPECT_TRUE(engine.Scan(in, ScanOptions{}, &result).ok());
  return result;
}

// An engine over `records` alone, its caches in `cache`; null (with a test
// failure) when it cannot be built.
inline std::shared_ptr<const Engine> FromRecords(const TempDir& cache, std::vector<Record> records) {
  auto engine = Engine::FromKnowledgeBase(KnowledgeBase::FromRecords(std::move(records)), cache.path().string());
  EXPECT_TRUE(engine.ok());
  return engine.ok() ? engine.value() : nullptr;
}

}  // namespace kedb::testing
