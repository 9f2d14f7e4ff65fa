# Thin wrapper over CMake so the README's commands stay short.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all build test demo bench clean

all: build

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: build
	./$(BUILD)/kedb stats --kb kb
	./$(BUILD)/kedb show cuda/cudnn-bn-epsilon-nan --kb kb
	./$(BUILD)/kedb lint --kb kb || true

clean:
	rm -rf $(BUILD)
