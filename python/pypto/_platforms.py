"""ptodist's platforms under PyPTO's `platform=` argument."""

import os

PLATFORMS = {
    "ptodist": "fast",  # ranks and cores in parallel on threads
    "ptodist-check": "check",  # one core at a time, seeded, reporting ordering hazards and deadlocks
    "ptodist-mpi": "mpi",  # fast mode, one rank per MPI process (run the script under mpirun)
}
DEFAULT = "ptodist"
_PYPTO_ONLY = ("a2a3", "a2a3sim", "a5", "a5sim")


def resolve(platform):
    """The ptodist platform a name stands for. $PTODIST_PLATFORM, when set, stands in for PyPTO's own
    platform names, so a script that hard-codes "a2a3sim" (argparse choices) runs unchanged."""
    override = os.environ.get("PTODIST_PLATFORM")
    if platform is None:
        return override or DEFAULT
    if override and platform in _PYPTO_ONLY:
        return override
    return platform


def mode_of(platform):
    """The run mode of a platform name; a ValueError naming ours for any other."""
    platform = resolve(platform)
    if platform in PLATFORMS:
        return PLATFORMS[platform]
    ours = ", ".join(f"{p!r} ({m} mode)" for p, m in PLATFORMS.items())
    if platform in _PYPTO_ONLY:
        raise ValueError(
            f"platform {platform!r} is a PyPTO device or simulator platform, which needs PyPTO's own runtime; "
            f"ptodist runs the platforms {ours} (pytest: --platform ptodist; a script that names {platform!r} "
            f"runs on ptodist with PTODIST_PLATFORM=ptodist in its environment)"
        )
    raise ValueError(f"unknown platform {platform!r}; ptodist runs the platforms {ours}")
