# Thin wrapper over CMake so the README's commands stay short.
BUILD ?= build
JOBS ?= $(shell nproc)
KEDB = ./$(BUILD)/kedb

.PHONY: all build test test-asan fuzz demo serve bench bench-scale bench-kafka setup clean

all: build

# Installs the Debian packages the build needs (root or sudo).
setup:
	@if [ "$$(id -u)" -eq 0 ]; then S=""; else S=sudo; fi; \
	$$S apt-get update -qq && $$S apt-get install -y -qq --no-install-recommends $$(cat .ci/packages.txt)
	@command -v node >/dev/null || { if [ "$$(id -u)" -eq 0 ]; then S=""; else S=sudo; fi; \
	  $$S apt-get install -y -qq --no-install-recommends nodejs npm; }
	npm ci --prefix tests/js --no-audit --no-fund --loglevel=error

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole suite again, built with AddressSanitizer and
# UndefinedBehaviorSanitizer in its own folder; any report fails the test.
# A smaller quarantine (freed memory held back to catch use after free)
# keeps the memory tests' bounds meaningful.
ASAN_BUILD ?= build-asan
test-asan:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKEDB_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=32 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# Every libFuzzer target for FUZZ_SECONDS each (clang-15; fuzz/run.sh).
FUZZ_SECONDS ?= 60
fuzz:
	bash fuzz/run.sh $(FUZZ_SECONDS)

# The main job: find the known errors in real-looking logs: a 3,000-line
# training run, a failed install, a pytest run and a multi-GPU job.
demo: build
	$(KEDB) scan examples/train-cudnn.log --env torch=2.2,os=linux
	@echo
	$(KEDB) scan examples/failed-install.log --top 1
	@echo
	$(KEDB) scan examples/pytest-cuda.log --top 1
	@echo
	$(KEDB) scan examples/nccl-timeout.log --top 1
	@echo
	$(KEDB) match --lang zh 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0' --top 1
	@echo
	$(KEDB) show cuda/cudnn-bn-epsilon-nan
	@echo
	$(KEDB) stats

# The HTTP API, MCP at /mcp and the web page, on http://127.0.0.1:8080/.
serve: build
	$(KEDB) serve --port 8080

# Matching and scanning benchmarks, with in-process baselines (the store
# benchmarks on a throwaway PostgreSQL server too), then the command-line
# comparison against ripgrep.
bench: build
	bash tests/pg/server.sh start $(BUILD)/bench-postgres
	KEDB_BENCH_POSTGRES=$$(cat $(BUILD)/bench-postgres/url 2>/dev/null) ./$(BUILD)/kedb-bench; \
	  rc=$$?; bash tests/pg/server.sh stop $(BUILD)/bench-postgres; exit $$rc
	bash bench/compare_cli.sh
	bash bench/store_reload.sh

# kedb on generated knowledge bases of 10k and 100k records (SIZES="..."
# for others; BASELINE=path/to/kedb for another build side by side).
bench-scale: build
	bash bench/scale.sh

# kedb consume with one and two consumers against a mock Kafka cluster.
bench-kafka: build
	bash bench/kafka.sh

clean:
	rm -rf $(BUILD)
