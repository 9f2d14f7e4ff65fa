# Thin wrapper over CMake so the README's commands stay short.
BUILD ?= build
JOBS ?= $(shell nproc)
KEDB = ./$(BUILD)/kedb

.PHONY: all build test demo setup clean

all: build

# Installs the Debian packages the build needs (root or sudo).
setup:
	@if [ "$$(id -u)" -eq 0 ]; then S=""; else S=sudo; fi; \
	$$S apt-get update -qq && $$S apt-get install -y -qq --no-install-recommends $$(cat .ci/packages.txt)

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: build
	$(KEDB) stats
	@echo
	$(KEDB) show cuda/cudnn-bn-epsilon-nan
	@echo
	$(KEDB) show cuda/cudnn-bn-epsilon-nan --lang zh
	@echo
	$(KEDB) lint || true

clean:
	rm -rf $(BUILD)
