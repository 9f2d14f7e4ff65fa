#include "util/error_phrases.h"

#include <algorithm>
#include <bitset>
#include <unordered_map>
#include <vector>

#include "util/text_words.h"

namespace kedb::util {
namespace {

struct Family {
  std::string_view word;  // what a text holding one of its phrases also holds
  std::vector<std::string_view> phrases;
};

// Error strings as the tools print them. A phrase of one word is an
// identifier that names the error by itself. A family's word starts with
// '~' when the phrases name one error whatever printed them (a TLS client
// that does not trust a certificate), and with '=' when they name a
// symptom many errors share, told apart by what printed it: "connection
// refused" from PostgreSQL and from NCCL are two errors with two fixes.
const std::vector<Family>& Families() {
  static const std::vector<Family> families = {
      {"~tls-untrusted",
       {"certificate signed by unknown authority", "unable to get local issuer certificate",
        "certificate verify failed", "self signed certificate in certificate chain", "self_signed_cert_in_chain",
        "unable to find valid certification path", "PKIX path building failed", "unable to verify the first certificate",
        "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERTIFICATE_VERIFY_FAILED",
        "server certificate verification failed", "SEC_E_UNTRUSTED_ROOT"}},
      {"~tls-hostname",
       {"hostname mismatch", "does not match certificate's altnames", "ERR_TLS_CERT_ALTNAME_INVALID",
        "no alternative certificate subject name matches", "ERR_CERT_COMMON_NAME_INVALID",
        "doesn't match either of", "certificate is not valid for"}},
      {"~tls-expired",
       {"certificate has expired", "CERT_HAS_EXPIRED", "certificate expired", "ERR_CERT_DATE_INVALID"}},
      {"~tls-protocol",
       {"unsupported protocol", "tlsv1 alert protocol version", "no protocols available",
        "ERR_SSL_VERSION_OR_CIPHER_MISMATCH"}},
      {"=conn-reset",
       {"connection reset by peer", "ECONNRESET", "socket hang up", "forcibly closed by the remote host",
        "WSAECONNRESET"}},
      {"=conn-refused",
       {"connection refused", "ECONNREFUSED", "actively refused", "connection to the server was refused",
        "WSAECONNREFUSED"}},
      {"=addr-in-use",
       {"address already in use", "EADDRINUSE", "port is already allocated",
        "only one usage of each socket address", "WSAEADDRINUSE"}},
      {"=dns-unresolved",
       {"name or service not known", "temporary failure in name resolution", "ENOTFOUND", "no such host",
        "could not resolve host", "nodename nor servname provided", "EAI_AGAIN", "UnknownHostException",
        "could not resolve hostname", "getaddrinfo failed"}},
      {"=net-unreachable", {"network is unreachable", "ENETUNREACH", "no route to host", "EHOSTUNREACH"}},
      {"=disk-full",
       {"no space left on device", "disk quota exceeded", "not enough space on the disk", "EDQUOT"}},
      {"~file-in-use",
       {"being used by another process", "cannot access the file because it is being used", "sharing violation",
        "file is locked by", "locked by another process", "ERROR_SHARING_VIOLATION"}},
      {"~state-dict-mismatch",
       {"Error(s) in loading state_dict", "Missing key(s) in state_dict", "Unexpected key(s) in state_dict",
        "size mismatch for", "copying a param with shape"}},
      {"~file-watch-limit",
       {"System limit for number of file watchers reached", "watch ENOSPC", "inotify watch limit reached",
        "ENOSPC: System limit for number of file watchers"}},
      {"~jvm-metaspace", {"OutOfMemoryError: Metaspace", "out of JVM Metaspace", "out of Metaspace"}},
      {"~cmake-generator",
       {"Could not create named generator", "unable to find a build program corresponding to",
        "CMAKE_MAKE_PROGRAM is not set"}},
      {"~image-manifest-missing",
       {"manifest unknown", "MANIFEST_UNKNOWN", "no matching manifest for", "manifest for not found"}},
      {"~cloud-permission-denied",
       {"AccessDeniedException", "UnauthorizedOperation", "is not authorized to perform", "AuthorizationFailed",
        "does not have authorization to perform"}},
      {"~bitsandbytes-cuda-setup",
       {"bitsandbytes not found or CUDA not available", "CUDA Setup failed despite GPU being available",
        "libbitsandbytes_cpu.so", "bitsandbytes was compiled without GPU support",
        "CUDA SETUP: Required library version not found"}},
      {"=too-many-files", {"too many open files", "EMFILE"}},
      {"=broken-pipe", {"broken pipe", "EPIPE"}},
      {"=rate-limited", {"too many requests", "rate limit exceeded", "rate limit reached", "rate_limit_exceeded"}},
      {"~cuda-oom",
       {"CUDA out of memory", "CUDA error: out of memory", "CUDA_ERROR_OUT_OF_MEMORY", "cudaErrorMemoryAllocation",
        "cuda runtime error (2) : out of memory"}},
  };
  return families;
}

uint64_t Hash(std::string_view w) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : w) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

struct Phrase {
  std::vector<uint64_t> words;  // hashed, in order
  std::string_view family;
};

// Phrases by the hash of their last word, and a bit per hash bucket that
// lets nearly every word go without a map look-up.
struct Table {
  std::unordered_map<uint64_t, std::vector<Phrase>> by_last;
  std::bitset<4096> last_words;
};

const Table& Phrases() {
  static const Table table = [] {
    Table t;
    for (const Family& f : Families()) {
      for (std::string_view text : f.phrases) {
        Phrase p{{}, f.word};
        // The words as a message's are read, but without the families: a
        // phrase is plain words. An identifier is itself, not its parts
        // (which a message gives after it, and a quoted one not at all).
        text_words_internal::NoCodes no_codes;
        const bool identifier = text.find(' ') == std::string_view::npos;
        auto add = [&](std::string_view w) {
          if (!identifier || p.words.empty()) p.words.push_back(Hash(w));
        };
        text_words_internal::ScanWords<true, false>(text, add, no_codes);
        if (p.words.empty() || p.words.size() > 8) continue;
        t.last_words.set(p.words.back() % 4096);
        t.by_last[p.words.back()].push_back(std::move(p));
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

std::size_t PhraseWindow::Push(std::string_view word, std::array<std::string_view, kMaxFound>* found) {
  const uint64_t h = Hash(word);
  recent_[count_++ % kWindow] = h;
  const Table& table = Phrases();
  if (!table.last_words.test(h % 4096)) return 0;
  auto it = table.by_last.find(h);
  if (it == table.by_last.end()) return 0;
  std::size_t n = 0;
  for (const Phrase& p : it->second) {
    // The phrase's other words, last to first, among the words before this
    // one, with at most kPhraseSlack others in between.
    const std::size_t reach = std::min(count_ - 1, p.words.size() - 1 + kPhraseSlack);
    std::size_t need = p.words.size() - 1;  // words of p still to find, from the end
    for (std::size_t back = 1; back <= reach && need > 0; ++back) {
      if (recent_[(count_ - 1 - back) % kWindow] == p.words[need - 1]) --need;
    }
    if (need > 0 || n == kMaxFound) continue;
    if (std::find(found->begin(), found->begin() + static_cast<long>(n), p.family) == found->begin() + static_cast<long>(n)) {
      (*found)[n++] = p.family;
    }
  }
  return n;
}

std::string ErrorPhraseRules() {
  std::string out;
  for (const Family& f : Families()) {
    out += f.word;
    for (std::string_view p : f.phrases) (out += '|') += p;
    out += '\n';
  }
  return out;
}

}  // namespace kedb::util
