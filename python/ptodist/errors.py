"""The exceptions ptodist raises; the message is the located report (file:line:col, line, caret)."""

from ._native import core

Error = Exception
CompileError = core.CompileError  # the compiler rejected a kernel
RunError = core.RunError  # a run failed (bad arguments, a run-time error in a kernel)
HazardError = core.HazardError  # check mode found an ordering hazard or a deadlock (a RunError)
HangError = core.HangError  # the watchdog saw no progress (a RunError)

# Reports are raised from the public call the user made, without the frames of ptodist's own layers:
# the message is the located report, and those frames would only hide it.
REPORTS = (CompileError, RunError)

for _cls in (CompileError, RunError, HazardError, HangError):
    _cls.__module__ = "ptodist"
