// The environment a thread reports: library and framework versions,
// Python, CUDA, cuDNN, the driver, the GPU and the OS.
//
// Read from what people paste: diagnose dumps in sections
// ("----------Python Info----------" then "Version : 3.7.4"),
// torch.utils.collect_env and `transformers-cli env` reports, nvidia-smi's
// header and GPU rows, `pip list` and `pip freeze` lines, and versions
// named in prose ("PyTorch 2.2", "node v20.11.0", "Ubuntu 22.04").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kedb::mine {

struct EnvFact {
  // Lower case: "python", "cuda", "cudnn", "driver", "gpu", "os", or a
  // package ("torch", "mxnet", "numpy", "transformers", ...).
  std::string name;
  std::string value;     // "3.7.4", "NVIDIA GeForce RTX 3090", "Ubuntu 22.04.3 LTS"
  std::string label;     // the name as written ("TypeScript"), for names ProductName does not know
  std::size_t post = 0;  // where it was read
  std::size_t line = 0;
  bool from_dump = false;  // a tool's report, not a sentence
};

// The facts in one post's body, in line order. A name reported twice in
// one post keeps its first value.
std::vector<EnvFact> FindEnvironment(std::string_view body, std::size_t post);

// Facts of all posts merged: one per name, a dump's value before a
// sentence's, an earlier post's before a later one's.
std::vector<EnvFact> MergeEnvironment(const std::vector<EnvFact>& facts);

// The product name a record's `versions` entry uses for `name` ("torch" ->
// "PyTorch", "cudnn" -> "cuDNN"), or "" for facts that are not versions
// (gpu, os, driver).
std::string ProductName(std::string_view name);

// The `versions` entry for a fact: "PyTorch 2.5.1" (a local build tag such
// as "+cu124" left out), "TypeScript 4.5.2"; "" when the fact is no version.
std::string VersionEntryText(const EnvFact& fact);

}  // namespace kedb::mine
