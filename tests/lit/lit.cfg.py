# lit configuration for ptodist's golden text tests: each .py kernel file or .test file under tests/lit
# carries its own RUN lines.
import os
import lit.formats

config.name = "ptodist"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptodist_bin_dir, "tests", "lit-out")
config.environment["PATH"] = os.pathsep.join(
    [config.ptodist_bin_dir, config.filecheck_dir, config.environment.get("PATH", "/usr/bin:/bin")])
config.substitutions.append(("%examples", os.path.join(config.ptodist_src_root, "examples")))
config.substitutions.append(("%python", config.python))

# Golden data of the op tests is computed with numpy (python3-numpy from Debian's archive): %numpy is a
# Python that has it, and tests that need it say `REQUIRES: numpy`.
import subprocess


def _python_with_numpy():
    for candidate in [config.python, "/usr/bin/python3"]:
        try:
            if subprocess.run([candidate, "-c", "import numpy"], capture_output=True).returncode == 0:
                return candidate
        except OSError:
            pass
    return None


_numpy_python = _python_with_numpy()
if _numpy_python:
    config.available_features.add("numpy")
    config.substitutions.append(("%numpy", _numpy_python))
