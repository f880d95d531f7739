# lit configuration for the check-mode hazard tests: each kernel under tests/hazards is a program with
# one ordering bug, run in `ptodist run --mode check`, whose RUN lines expect exit code 3 and FileCheck
# the report (see docs/checking.md).
import os
import lit.formats

config.name = "ptodist-hazards"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".test"]
# pending/: hazards whose detection is not implemented yet (listed in docs/checking.md, Limits).
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "expect_exit.py", "clean_examples.sh", "Inputs", "pending"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptodist_bin_dir, "tests", "hazards-out")
config.environment["PATH"] = os.pathsep.join(
    [config.ptodist_bin_dir, config.filecheck_dir, config.environment.get("PATH", "/usr/bin:/bin")])
# `not` accepts any non-zero code; a hazard must exit with exactly 3 (1 would be a program error).
config.substitutions.append(
    ("%expect-exit", config.python + " " + os.path.join(config.test_source_root, "expect_exit.py")))
config.substitutions.append(("%examples", os.path.join(config.ptodist_src_root, "examples")))
config.substitutions.append(("%python", config.python))
