# The two entry points of the README. Each one installs what it needs, configures and builds.
BUILD ?= build
JOBS ?= $(shell nproc)
RANKS ?= 4

.PHONY: deps configure build demo test test-asan bench fuzz fuzz-scalar fuzz-frontend clean

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

# The unit, golden and e2e tests under AddressSanitizer + UndefinedBehaviorSanitizer (Debug): every
# unit, lit, hazard and e2e test with leak checking, and of the MPI runs the one in ASAN_MPI with
# leak checking off (Open MPI leaks at MPI_Finalize from plugins it has unloaded, which no suppression
# can name; ASan and UBSan still check every access). The other MPI runs vary only the transport and
# thread mode and stay in `make test`. Under ctest, LeakSanitizer's own tracer crashes (signal 11,
# "LeakSanitizer has encountered a fatal error") at the exit of the BLAS baseline test, whose BLAS
# threads are still alive; run by hand the same binary exits clean. That test also runs with leak
# checking off. The Python entry point's pytest test (`python`) is left out for now: ctest preloads
# libasan into Debian's python3 for it (tests/python/CMakeLists.txt), a mechanism checked with numpy
# and torch, but the whole sanitized pytest run was not yet; run it with
# `cd build-asan && ctest -R '^python$$'`. Timings: docs/testing.md.
ASAN_MPI ?= ^mpi_ring_put_np2$$
ASAN_NO_LEAK_CHECK ?= ^BenchBlasBaseline\.ChosenBlasIsCorrectAndNamed$$
test-asan: deps
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPTODIST_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) -L 'unit|golden|e2e' -E '^mpi_|^python$$|$(ASAN_NO_LEAK_CHECK)'
	cd build-asan && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j $(JOBS) -R '$(ASAN_MPI)|$(ASAN_NO_LEAK_CHECK)'

# Every benchmark with its ratio to a baseline timed in the same run (docs/benchmarks.md); Release.
# BENCH_REPS / BENCH_ROUNDS set the repetitions (see bench/run.sh).
bench: build
	bash bench/run.sh $(BUILD)

# Fuzzing at length (docs/testing.md): the differential scalar tester, FUZZ_COUNT random expressions
# from FUZZ_SEED, each folded and at run time, against python3 (tests/fuzz/scalar_diff.py); then the
# libFuzzer target of the front end and compile pipeline (tests/fuzz/frontend_fuzzer.cpp, clang-14,
# ASan + UBSan) for FUZZ_SECONDS of CPU, its corpus kept in $(FUZZ_BUILD)/corpus. Both run under nice.
FUZZ_SEED ?= 1
FUZZ_COUNT ?= 20000
FUZZ_SECONDS ?= 600
FUZZ_BUILD ?= build-fuzz
fuzz: fuzz-scalar fuzz-frontend

fuzz-scalar: build
	nice -n 19 python3 tests/fuzz/scalar_diff.py $(BUILD)/ptodist --seed $(FUZZ_SEED) --count $(FUZZ_COUNT) --batch 500 --progress --timeout 1800

fuzz-frontend: deps
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang-14 \
	  -DCMAKE_CXX_COMPILER=clang++-14 -DPTODIST_FUZZ=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target frontend_fuzzer
	nice -n 19 bash tests/fuzz/run_frontend_fuzzer_cpu.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) build-asan $(FUZZ_BUILD)
