// Log-shaped evaluation cases: an error message wrapped in the noise a real
// log puts around it, in one of several log styles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kedb::eval {

// "python" (a traceback after training progress), "github" (Actions
// timestamps and ##[error]), "docker" (BuildKit step prefixes), "pytest"
// (a failure section with E lines), "jenkins" (timestamper prefixes and
// colours).
const std::vector<std::string>& WrapStyles();

// `message` inside 20-80 lines of noise (progress bars, INFO and DEBUG lines,
// warnings, frames), in `style`. Deterministic in `seed`.
std::string Wrap(const std::string& message, const std::string& style, uint64_t seed);

}  // namespace kedb::eval
