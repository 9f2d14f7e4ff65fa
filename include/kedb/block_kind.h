// What kind of error block a log's lines form (ErrorBlock::kind), and the
// name each kind has in JSON and text output.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kedb {

enum class BlockKind : uint8_t {
  kPython,      // a Python traceback, or IPython's
  kJava,        // a Java exception with its "at" frames
  kJavascript,  // a JavaScript error with its "at" frames
  kCpp,         // an uncaught C++ exception
  kRustPanic,   // a Rust panic
  kRustc,       // a rustc diagnostic
  kGoPanic,     // a Go panic with its goroutines
  kNpm,         // npm's "npm ERR!" report
  kPytest,      // a pytest failure
  kCompiler,    // a C, C++ or Go compiler diagnostic
  kGpu,         // a CUDA, cuDNN, cuBLAS or NCCL failure
  kErrorLine,   // a line that says something failed, alone
  kStep,        // a failed step's exit status, with the problem lines before it
  kMatch,       // known errors on lines no other block holds
};

inline constexpr std::string_view BlockKindName(BlockKind kind) {
  constexpr std::string_view kNames[] = {"python", "java",     "javascript", "cpp", "rust-panic",
                                         "rustc",  "go-panic", "npm",        "pytest", "compiler",
                                         "gpu",    "error-line", "step",     "match"};
  return kNames[static_cast<uint8_t>(kind)];
}

// The kind a name stands for; nullopt for a name that is none.
inline constexpr std::optional<BlockKind> BlockKindNamed(std::string_view name) {
  for (uint8_t k = 0; k <= static_cast<uint8_t>(BlockKind::kMatch); ++k) {
    if (BlockKindName(static_cast<BlockKind>(k)) == name) return static_cast<BlockKind>(k);
  }
  return std::nullopt;
}

}  // namespace kedb
