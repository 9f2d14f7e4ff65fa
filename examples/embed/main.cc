// A program that embeds kedb: it opens a knowledge base, matches one error
// message and prints the best known error with its first workaround.
//
//   kedb-embed-example KB_PATH 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM'
//
// Exit status: 0 a known error matched, 1 none, 2 the knowledge base could
// not be opened.
#include <cstdio>

#include <kedb/engine.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s KB_PATH MESSAGE\n", argv[0]);
    return 2;
  }
  kedb::OpenOptions options;
  options.cache_dir = "-";  // nothing written beside the knowledge base
  auto engine = kedb::Engine::Open(argv[1], options);
  if (!engine.ok()) {
    std::fprintf(stderr, "%s\n", engine.status().message().c_str());
    return 2;
  }
  kedb::MatchResult result = (*engine)->Match(argv[2], kedb::MatchOptions{});
  if (result.matches.empty()) {
    std::printf("no known error\n");
    return 1;
  }
  const kedb::Match& best = result.matches.front();
  std::printf("%s (%s, confidence %.2f)\n", best.record->id.c_str(),
              std::string(kedb::MatchKindName(best.kind)).c_str(), best.confidence);
  std::printf("root cause: %s\n", best.record->root_cause.c_str());
  if (!best.record->workarounds.empty()) {
    std::printf("try first: %s\n", best.record->workarounds.front().action.c_str());
  }
  return 0;
}
