# The two entry points of the README. Each one installs what it needs, configures and builds.
BUILD ?= build
JOBS ?= $(shell nproc)
RANKS ?= 4

.PHONY: deps configure build demo test test-asan bench fuzz clean

deps:
	bash scripts/install-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	bash scripts/demo.sh $(BUILD) $(RANKS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same unit and golden tests under AddressSanitizer + UndefinedBehaviorSanitizer (Debug).
test-asan: deps
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPTODIST_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) -L 'unit|golden'

# Every benchmark with its ratio to a baseline timed in the same run (docs/benchmarks.md); Release.
# BENCH_REPS / BENCH_ROUNDS set the repetitions (see bench/run.sh).
bench: build
	bash bench/run.sh $(BUILD)

# The differential scalar tester at length: FUZZ_COUNT random expressions from FUZZ_SEED, each folded
# and at run time, against python3 (tests/fuzz/scalar_diff.py).
FUZZ_SEED ?= 1
FUZZ_COUNT ?= 20000
fuzz: build
	python3 tests/fuzz/scalar_diff.py $(BUILD)/ptodist --seed $(FUZZ_SEED) --count $(FUZZ_COUNT) --batch 500

clean:
	rm -rf $(BUILD) build-asan
