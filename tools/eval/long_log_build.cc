// Native, Java and service output for the long logs: apt-get, CMake, a
// make/ninja build with the occasional compiler warning, ctest, Maven and
// Gradle, and `docker compose logs` of a job's services. Benign throughout:
// "-- Looking for pthread_create in pthreads - not found", "warning: unused
// variable", liberror-perl, "Failures: 0, Errors: 0", redis' overcommit
// warning; never a failure.
#include <fmt/format.h>

#include <string>

#include "long_log_parts.h"

namespace kedb::eval::longlog {
namespace {

const char* kDebs[] = {
    "libssl-dev", "zlib1g-dev", "libpq5", "libpq-dev", "libffi-dev", "build-essential", "g++-12", "gcc-12",
    "cpp-12", "libstdc++-12-dev", "libgcc-12-dev", "binutils", "binutils-common", "libbinutils", "make",
    "dpkg-dev", "libc6-dev", "linux-libc-dev", "libcrypt-dev", "libnsl-dev", "libtirpc-dev", "libasan8",
    "libubsan1", "libtsan2", "liblsan0", "libitm1", "libquadmath0", "libgomp1", "libisl23", "libmpc3", "libmpfr6",
    "patch", "xz-utils", "pkg-config", "libpkgconf3", "pkgconf-bin", "libboost1.74-dev", "libeigen3-dev",
    "ninja-build", "cmake", "cmake-data", "libjsoncpp25", "librhash0", "libuv1", "libarchive13", "libcurl4",
    "libnghttp2-14", "librtmp1", "libssh2-1", "libpsl5", "publicsuffix", "ca-certificates", "openssl", "git",
    "git-man", "liberror-perl", "less", "libcbor0.8", "libedit2", "libfido2-1", "libxext6", "libxmuu1",
    "openssh-client", "xauth", "libexpat1", "perl", "perl-modules-5.36", "libperl5.36", "libgdbm6",
    "libgdbm-compat4", "netbase", "curl", "wget", "unzip", "gnupg", "dirmngr", "gpg-agent", "libsqlite3-0",
    "libreadline8", "readline-common", "libbz2-1.0", "libgmp10", "libkrb5-3", "libgssapi-krb5-2", "libk5crypto3",
    "libkrb5support0", "libkeyutils1", "libldap-2.5-0", "libsasl2-2", "libbrotli1", "libjpeg62-turbo",
    "libpng16-16", "libfreetype6", "libfontconfig1", "fontconfig-config", "fonts-dejavu-core", "libx11-6",
    "libxcb1", "libxau6", "libxdmcp6", "libbsd0", "libmd0", "libgl1", "libglib2.0-0", "libsm6", "libice6",
    "shared-mime-info", "libgpm2", "libprotobuf32", "protobuf-compiler", "libgrpc++1.51", "libfmt9"};
constexpr std::size_t kNumDebs = sizeof(kDebs) / sizeof(kDebs[0]);

const char* kDirs[] = {"core", "net", "io", "parser", "util", "storage", "codec", "rpc", "sched", "tests"};
const char* kSources[] = {"error_handler", "errors", "exception_utils", "fault_injector", "abort_guard",
                          "socket", "buffer", "lexer", "parser", "reader", "writer", "thread_pool", "timer",
                          "config", "logging", "hash_map", "string_util", "retry_policy", "checksum", "arena",
                          "channel", "session", "encoder", "decoder", "cache", "main", "options", "signals"};
const char* kTargets[] = {"core", "net", "io", "parser", "util", "storage", "codec", "rpc", "app", "bench"};

std::string DebVersion(Rng& r) {
  return fmt::format("{}.{}.{}-{}", r.Below(9), r.Below(20), r.Below(12), 1 + r.Below(4));
}

// GCC's three-line diagnostic, coloured as GCC colours it when asked to.
Lines GccWarning(Rng& r, const Env& e, const std::string& file) {
  static const char* kWarnings[][3] = {
      {"unused variable 'rc'", "-Wunused-variable", "    int rc = 0;"},
      {"unused parameter 'ctx'", "-Wunused-parameter", "void on_close(Context* ctx) {"},
      {"comparison of integer expressions of different signedness: 'int' and 'std::vector<int>::size_type' {aka "
       "'long unsigned int'}", "-Wsign-compare", "  for (int i = 0; i < items.size(); ++i) {"},
      {"'len' may be used uninitialized", "-Wmaybe-uninitialized", "  return len;"},
      {"'void Buffer::reset()' is deprecated: use clear() [-Wdeprecated-declarations]", "", "  buf.reset();"},
      {"'Session::timeout_' will be initialized after", "-Wreorder", "  int timeout_;"}};
  const auto& w = kWarnings[r.Below(6)];
  std::size_t line = 10 + r.Below(900), col = 3 + r.Below(20);
  std::string where = fmt::format("{}/{}:{}:{}:", e.root, file, line, col);
  std::string flag = w[1][0] ? fmt::format(" [{}]", w[1]) : "";
  Lines out = {fmt::format("{}/{}: In function 'int process(const char*, size_t)':", e.root, file)};
  if (e.color) {
    out.push_back(fmt::format("\x1b[01m\x1b[K{}\x1b[m\x1b[K \x1b[01;35m\x1b[Kwarning: \x1b[m\x1b[K{}{}", where, w[0],
                              flag));
  } else {
    out.push_back(fmt::format("{} warning: {}{}", where, w[0], flag));
  }
  out.push_back(fmt::format("{:5} | {}", line, w[2]));
  out.push_back(fmt::format("      | {}^~~", std::string(col > 1 ? col - 1 : 0, ' ')));
  return out;
}

}  // namespace

// apt-get update and install: index fetches, the package lists, the .deb
// downloads and their unpacking. In a container, debconf's frontend notes.
Lines AptInstall(Rng& r, const Env& e, std::size_t packages) {
  const bool debian = e.docker && r.Chance(0.6);
  const std::string mirror = debian ? "http://deb.debian.org/debian" : "http://azure.archive.ubuntu.com/ubuntu";
  const std::string dist = debian ? "bookworm" : "jammy";
  Lines out;
  const char* suites[] = {"", "-updates", "-backports", "-security"};
  for (int i = 0; i < 4; ++i) {
    out.push_back(fmt::format("{}:{} {} {}{} InRelease{}", i % 2 ? "Get" : "Hit", i + 1, mirror, dist, suites[i],
                              i % 2 ? fmt::format(" [{} kB]", 50 + r.Below(200)) : ""));
  }
  out.push_back(fmt::format("Fetched {:.1f} MB in {}s ({} kB/s)", 1 + r.Below(300) / 10.0, 1 + r.Below(5),
                            500 + r.Below(9000)));
  out.insert(out.end(), {"Reading package lists...", "Building dependency tree...", "Reading state information..."});
  std::size_t k = std::min(packages, kNumDebs), start = r.Below(kNumDebs);
  std::vector<std::string> names, versions;
  for (std::size_t i = 0; i < k; ++i) {
    names.push_back(kDebs[(start + i * 11) % kNumDebs]);
    versions.push_back(DebVersion(r));
  }
  out.push_back("The following NEW packages will be installed:");
  for (std::size_t i = 0; i < k; i += 8) {
    std::string row = " ";
    for (std::size_t j = i; j < std::min(k, i + 8); ++j) row += " " + names[j];
    out.push_back(row);
  }
  out.push_back(fmt::format("0 upgraded, {} newly installed, 0 to remove and {} not upgraded.", k, r.Below(40)));
  out.push_back(fmt::format("Need to get {:.1f} MB of archives.", k * 0.7));
  out.push_back(fmt::format("After this operation, {} MB of additional disk space will be used.", k * 3));
  for (std::size_t i = 0; i < k; ++i) {
    out.push_back(fmt::format("Get:{} {} {}/main amd64 {} amd64 {} [{} kB]", i + 1, mirror, dist, names[i],
                              versions[i], 10 + r.Below(4000)));
  }
  if (e.docker) {
    out.insert(out.end(), {"debconf: delaying package configuration, since apt-utils is not installed"});
  }
  out.push_back(fmt::format("Fetched {:.1f} MB in {}s ({:.1f} MB/s)", k * 0.7, 1 + r.Below(9),
                            2 + r.Below(400) / 10.0));
  for (std::size_t i = 0; i < k; ++i) {
    out.push_back(fmt::format("Selecting previously unselected package {}:amd64.", names[i]));
    if (i == 0) out.push_back(fmt::format("(Reading database ... {} files and directories currently installed.)",
                                          6000 + r.Below(60000)));
    out.push_back(fmt::format("Preparing to unpack .../{:02}-{}_{}_amd64.deb ...", i, names[i], versions[i]));
    out.push_back(fmt::format("Unpacking {}:amd64 ({}) ...", names[i], versions[i]));
  }
  for (std::size_t i = 0; i < k; ++i) {
    out.push_back(fmt::format("Setting up {}:amd64 ({}) ...", names[i], versions[i]));
    if (names[i] == "g++-12" || (i == k / 2 && e.docker)) {
      out.push_back("update-alternatives: using /usr/bin/g++ to provide /usr/bin/c++ (c++) in auto mode");
      out.push_back("update-alternatives: warning: skip creation of /usr/share/man/man1/c++.1.gz because associated "
                    "file /usr/share/man/man1/g++.1.gz (of link group c++) doesn't exist");
    }
  }
  out.push_back("Processing triggers for libc-bin (2.36-9+deb12u4) ...");
  if (!e.docker) out.push_back("Processing triggers for man-db (2.10.2-1) ...");
  return out;
}

// cmake configure: compiler detection, the pthread probes (one of them always
// "not found"), package searches, sometimes a developer warning.
Lines CmakeConfigure(Rng& r, const Env& e) {
  std::string gcc = fmt::format("{}.{}.0", 11 + r.Below(3), r.Below(5));
  Lines out = {"-- The CXX compiler identification is GNU " + gcc, "-- The C compiler identification is GNU " + gcc,
               "-- Detecting CXX compiler ABI info", "-- Detecting CXX compiler ABI info - done",
               "-- Check for working CXX compiler: /usr/bin/c++ - skipped", "-- Detecting CXX compile features",
               "-- Detecting CXX compile features - done", "-- Detecting C compiler ABI info",
               "-- Detecting C compiler ABI info - done", "-- Check for working C compiler: /usr/bin/cc - skipped",
               "-- Looking for pthread.h", "-- Looking for pthread.h - found",
               "-- Performing Test CMAKE_HAVE_LIBC_PTHREAD", "-- Performing Test CMAKE_HAVE_LIBC_PTHREAD - Failed",
               "-- Looking for pthread_create in pthreads", "-- Looking for pthread_create in pthreads - not found",
               "-- Looking for pthread_create in pthread", "-- Looking for pthread_create in pthread - found",
               "-- Found Threads: TRUE",
               fmt::format("-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version \"1.2.{}\")",
                           11 + r.Below(3)),
               fmt::format("-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version \"3.0.{}\")",
                           r.Below(14)),
               "-- Could NOT find Doxygen (missing: DOXYGEN_EXECUTABLE) "};
  if (r.Chance(0.3)) {
    out.insert(out.end(), {fmt::format("CMake Warning (dev) at /usr/share/cmake-3.{}/Modules/FetchContent.cmake:1316 "
                                       "(message):", 25 + r.Below(4)),
                           "  The DOWNLOAD_EXTRACT_TIMESTAMP option was not given and policy CMP0135 is",
                           "  not set.  The policy's OLD behavior will be used.",
                           "This warning is for project developers.  Use -Wno-dev to suppress it.", ""});
  }
  static const char* kFlags[] = {"WNO_UNUSED", "FSANITIZE_ADDRESS", "FNO_OMIT_FRAME_POINTER", "WNO_DEPRECATED",
                                  "MARCH_NATIVE", "FVISIBILITY_HIDDEN"};
  for (std::size_t i = r.Below(8); i > 0; --i) {
    const char* flag = r.Pick(kFlags);
    out.push_back(fmt::format("-- Performing Test HAVE_{}_FLAG", flag));
    out.push_back(fmt::format("-- Performing Test HAVE_{}_FLAG - Success", flag));
  }
  out.insert(out.end(), {fmt::format("-- Configuring done ({:.1f}s)", 0.5 + r.Below(90) / 10.0),
                         fmt::format("-- Generating done ({:.1f}s)", r.Below(20) / 10.0),
                         "-- Build files have been written to: " + e.root + "/build"});
  return out;
}

// A make or ninja build of about n lines: one line an object, a link per
// target, a compiler warning every few dozen lines.
Lines Compile(Rng& r, const Env& e, std::size_t n, bool ninja) {
  Lines out;
  std::size_t total = n + n / 8, done = 0;
  while (out.size() < n) {
    const char* target = r.Pick(kTargets);
    if (!ninja) out.push_back(fmt::format("Consolidate compiler generated dependencies of target {}", target));
    for (std::size_t i = 3 + r.Below(40); i > 0 && out.size() < n; --i) {
      ++done;
      std::string src = fmt::format("src/{}/{}.{}", r.Pick(kDirs), r.Pick(kSources), r.Chance(0.7) ? "cpp" : "cc");
      std::string obj = fmt::format("Building CXX object src/CMakeFiles/{}.dir/{}.o", target, src.substr(4));
      out.push_back(ninja ? fmt::format("[{}/{}] {}", done, total, obj)
                          : fmt::format("[{:3}%] {}", std::min<std::size_t>(99, done * 100 / total), obj));
      if (r.Chance(0.025)) {
        for (auto& l : GccWarning(r, e, src)) out.push_back(std::move(l));
      }
    }
    std::string link = fmt::format("Linking CXX static library lib{}.a", target);
    out.push_back(ninja ? fmt::format("[{}/{}] {}", ++done, total, link)
                        : fmt::format("[{:3}%] {}", std::min<std::size_t>(99, done * 100 / total), link));
    if (!ninja) out.push_back(fmt::format("[{:3}%] Built target {}", std::min<std::size_t>(99, done * 100 / total),
                                          target));
  }
  return out;
}

// ctest: Start and Passed lines, then (when `finish`) the all-passed summary.
Lines Ctest(Rng& r, const Env& e, std::size_t n, bool finish) {
  std::size_t tests = std::max<std::size_t>(4, n / 2) + (finish ? 0 : r.Below(n / 4 + 2));
  Lines out = {"Test project " + e.root + "/build"};
  for (std::size_t i = 1; i <= tests && (finish || out.size() < n); ++i) {
    std::string name = fmt::format("{}_{}_test", r.Pick(kDirs), r.Pick(kSources));
    std::string dots(name.size() < 37 ? 40 - name.size() : 3, '.');
    out.push_back(fmt::format("      Start {:3}: {}", i, name));
    out.push_back(fmt::format("{:3}/{} Test {:3}: {} {}   Passed  {:6.2f} sec", i, tests, i, name, dots,
                              r.Below(500) / 100.0));
  }
  if (!finish) return out;
  out.insert(out.end(), {"", fmt::format("100% tests passed, 0 tests failed out of {}", tests), "",
                         fmt::format("Total Test time (real) = {:7.2f} sec", 5 + r.Below(30000) / 100.0)});
  return out;
}

// `mvn dependency:go-offline`: Downloading/Downloaded pairs.
Lines MavenDownloads(Rng& r, std::size_t n) {
  static const char* kArtifacts[] = {
      "org/springframework/spring-core", "org/springframework/boot/spring-boot-autoconfigure",
      "com/fasterxml/jackson/core/jackson-databind", "org/apache/commons/commons-lang3", "org/slf4j/slf4j-api",
      "ch/qos/logback/logback-classic", "org/junit/jupiter/junit-jupiter-api", "org/mockito/mockito-core",
      "org/apache/maven/plugins/maven-surefire-plugin", "org/apache/maven/plugins/maven-compiler-plugin",
      "com/google/guava/guava", "org/hibernate/orm/hibernate-core", "io/netty/netty-handler",
      "org/assertj/assertj-core", "org/apache/maven/shared/maven-shared-utils", "org/codehaus/plexus/plexus-utils"};
  Lines out;
  while (out.size() < n) {
    std::string a = r.Pick(kArtifacts), v = r.Version(), name = a.substr(a.rfind('/') + 1);
    const char* ext = r.Chance(0.6) ? "pom" : "jar";
    std::string url = fmt::format("https://repo.maven.apache.org/maven2/{}/{}/{}-{}.{}", a, v, name, v, ext);
    out.push_back("Downloading from central: " + url);
    out.push_back(fmt::format("Downloaded from central: {} ({} kB at {} kB/s)", url, 1 + r.Below(900),
                              100 + r.Below(9000)));
  }
  return out;
}

// A Maven or Gradle build of about n lines up to its test phase's end.
Lines JavaBuild(Rng& r, const Env& e, std::size_t n, bool gradle) {
  static const char* kClasses[] = {"OrderService", "PaymentClient", "ErrorMapper", "RetryTemplate", "UserRepository",
                                   "InvoiceController", "ExceptionTranslator", "CacheConfig", "AuditListener"};
  static const char* kPkgs[] = {"service", "web", "repository", "config", "client", "mapper"};
  std::string group = "com.example." + e.project;
  Lines out;
  if (gradle) {
    const std::string v = fmt::format("8.{}", 4 + r.Below(7));
    out.insert(out.end(), {"Downloading https://services.gradle.org/distributions/gradle-" + v + "-bin.zip",
                           "............10%.............20%............30%.............40%............."
                           "50%............60%.............70%.............80%............90%.............100%",
                           "", "Welcome to Gradle " + v + "!", "",
                           "For more details see https://docs.gradle.org/" + v + "/release-notes.html", "",
                           "Starting a Gradle Daemon (subsequent builds will be faster)"});
    for (const char* t :
         {":compileJava", ":processResources", ":classes", ":compileTestJava", ":testClasses", ":test"}) {
      out.push_back(std::string("> Task ") + t);
    }
    static const char* kMethods[] = {"returnsEmptyListWhenNoRows", "mapsErrorCodes", "retriesOnTimeout",
                                     "rejectsInvalidToken", "throwsWhenConfigMissing", "savesAndLoads",
                                     "handlesConcurrentUpdates", "serializesToJson", "returns404ForUnknownId",
                                     "appliesDiscount", "skipsExpiredSessions", "logsAuditEvent"};
    while (out.size() < n) {
      std::string cls = fmt::format("{}Test", r.Pick(kClasses));
      for (std::size_t i = 1 + r.Below(12); i > 0; --i) {
        out.push_back(fmt::format("{} > {}() {}", cls, r.Pick(kMethods), r.Chance(0.97) ? "PASSED" : "SKIPPED"));
      }
      out.push_back("");
    }
    return out;
  }
  out.insert(out.end(), {"[INFO] Scanning for projects...", "[INFO] ",
                         fmt::format("[INFO] ------------------------< {}:{} >-------------------------", group,
                                     e.project),
                         fmt::format("[INFO] Building {} {}-SNAPSHOT", e.project, e.version), "[INFO]   from pom.xml",
                         "[INFO] --------------------------------[ jar ]---------------------------------",
                         "[INFO] ",
                         "[INFO] --- compiler:3.11.0:compile (default-compile) @ " + e.project + " ---",
                         "[INFO] Changes detected - recompiling the module! :source",
                         fmt::format("[INFO] Compiling {} source files with javac [debug release 17] to target/classes",
                                     40 + r.Below(400))});
  for (std::size_t i = r.Below(6); i > 0; --i) {
    out.push_back(fmt::format("[WARNING] {}/src/main/java/com/example/{}/{}.java:[{},{}] [deprecation] getStatusCode() "
                              "in ResponseEntity has been deprecated", e.root, r.Pick(kPkgs), r.Pick(kClasses),
                              10 + r.Below(300), 5 + r.Below(40)));
  }
  out.insert(out.end(), {"[INFO] ", "[INFO] --- surefire:3.2.5:test (default-test) @ " + e.project + " ---",
                         "[INFO] Using auto detected provider "
                         "org.apache.maven.surefire.junitplatform.JUnitPlatformProvider",
                         "[INFO] ", "[INFO] -------------------------------------------------------",
                         "[INFO]  T E S T S", "[INFO] -------------------------------------------------------"});
  while (out.size() < n) {
    std::string cls = fmt::format("com.example.{}.{}Test", r.Pick(kPkgs), r.Pick(kClasses));
    out.push_back("[INFO] Running " + cls);
    static const char* kLogs[] = {
        "INFO  com.zaxxer.hikari.HikariDataSource - HikariPool-1 - Starting...",
        "INFO  com.zaxxer.hikari.HikariDataSource - HikariPool-1 - Start completed.",
        "INFO  o.h.e.t.j.p.i.JtaPlatformInitiator - HHH000489: No JTA platform available (set "
        "'hibernate.transaction.jta.platform' to enable JTA platform integration)",
        "WARN  o.s.b.a.o.j.JpaBaseConfiguration$JpaWebConfiguration - spring.jpa.open-in-view is enabled by default. "
        "Therefore, database queries may be performed during view rendering. Explicitly configure "
        "spring.jpa.open-in-view to disable this warning",
        "INFO  o.f.core.internal.command.DbMigrate - Successfully applied 14 migrations to schema \"public\", now at "
        "version v14",
        "INFO  o.s.t.c.s.DefaultTestContextBootstrapper - Using TestExecutionListeners: "
        "[DirtiesContextTestExecutionListener]",
        "INFO  o.s.b.w.e.tomcat.TomcatWebServer - Tomcat started on port 0 (http) with context path ''"};
    const std::string simple = cls.substr(cls.rfind('.') + 1);
    for (std::size_t i = r.Below(8); i > 0; --i) {
      out.push_back(r.Chance(0.2) ? fmt::format("{}H [main] INFO  {} - Started {} in {:.3f} seconds (process running "
                                                "for {:.1f})", kNow, cls.substr(0, cls.size() - 4), simple,
                                                1 + r.Below(5000) / 1000.0, 3 + r.Below(200) / 10.0)
                                  : fmt::format("{}H [main] {}", kNow, r.Pick(kLogs)));
    }
    std::size_t run = 1 + r.Below(30);
    out.push_back(fmt::format("[INFO] Tests run: {}, Failures: 0, Errors: 0, Skipped: {}, Time elapsed: {:.3f} s -- "
                              "in {}", run, r.Chance(0.2) ? 1 : 0, r.Below(9000) / 1000.0, cls));
  }
  return out;
}

// `docker compose logs`: the job's services' own logs, padded service names
// and all, with the warnings every such stack prints on startup.
Lines ServiceLogs(Rng& r, std::size_t n) {
  static const char* kPaths[] = {"/health", "/api/orders", "/api/users/me", "/static/app.js", "/api/items?page=2",
                                 "/metrics", "/api/errors/summary", "/login"};
  Lines out = {"db-1      | PostgreSQL init process complete; ready for start up.",
               "redis-1   | 1:C " + std::string(1, kNow) + "R # WARNING Memory overcommit must be enabled! Without it, "
               "a background save or replication may fail under low memory condition. To fix this issue add "
               "'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl "
               "vm.overcommit_memory=1' for this to take effect.",
               std::string("redis-1   | 1:M ") + kNow + "R * Ready to accept connections tcp",
               std::string("db-1      | ") + kNow + "P [1] LOG:  database system is ready to accept connections"};
  while (out.size() < n) {
    const char* path = r.Pick(kPaths);
    switch (r.Below(6)) {
      case 0:
        out.push_back(fmt::format("api-1     | INFO:     172.18.0.{}:{} - \"GET {} HTTP/1.1\" 200 OK", 2 + r.Below(8),
                                  30000 + r.Below(30000), path));
        break;
      case 1:
        out.push_back(fmt::format("nginx-1   | 172.18.0.1 - - [{}N] \"GET {} HTTP/1.1\" 200 {} \"-\" \"curl/8.5.0\"",
                                  kNow, path, r.Below(9000)));
        break;
      case 2:
        out.push_back(fmt::format("worker-1  | [{}L: INFO/ForkPoolWorker-{}] Task app.tasks.sync_orders[{}-{}] "
                                  "succeeded in {:.3f}s: None", kNow, 1 + r.Below(4), r.Hex(8), r.Hex(4),
                                  r.Below(3000) / 1000.0));
        break;
      case 3:
        out.push_back(fmt::format("db-1      | {}P [{}] LOG:  checkpoint complete: wrote {} buffers ({:.1f}%); 0 WAL "
                                  "file(s) added, 0 removed, 0 recycled", kNow, 20 + r.Below(90), r.Below(900),
                                  r.Below(100) / 10.0));
        break;
      case 4:
        out.push_back(
            fmt::format("redis-1   | 1:M {}R * {} changes in 60 seconds. Saving...", kNow, 1 + r.Below(10000)));
        break;
      default:
        out.push_back(fmt::format("api-1     | {}L INFO app.request: {} {} completed in {}ms", kNow,
                                  r.Chance(0.8) ? "GET" : "POST", path, 1 + r.Below(400)));
    }
  }
  return out;
}

}  // namespace kedb::eval::longlog
