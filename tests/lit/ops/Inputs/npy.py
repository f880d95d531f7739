#!/usr/bin/env python3
"""Golden data for the op tests, computed with numpy independently of ptodist.

  npy.py save FILE EXPR          writes numpy's value of EXPR (np in scope) to FILE
  npy.py check DIR NAME EXPR     loads every DIR/*.npy by its stem, evaluates EXPR over them and
                                 compares it with DIR/NAME.npy (exact for integers, 1e-6 relative for
                                 floats); prints "ok NAME" or the first mismatch and exits 1
"""
import os
import sys

import numpy as np


def main():
    if sys.argv[1] == "save":
        np.save(sys.argv[2], eval(sys.argv[3], {"np": np}))
        return 0
    folder, name, expr = sys.argv[2], sys.argv[3], sys.argv[4]
    env = {"np": np}
    for f in os.listdir(folder):
        if f.endswith(".npy"):
            env[f[:-4]] = np.load(os.path.join(folder, f))
    want = np.asarray(eval(expr, env))
    got = env[name]
    if got.shape != want.shape:
        print(f"{name}: shape {got.shape}, expected {want.shape}")
        return 1
    same = np.array_equal(got, want) if got.dtype.kind in "iub" else np.allclose(got, want, rtol=1e-6)
    if not same:
        bad = np.argwhere(got != want)[0] if got.dtype.kind in "iub" else np.argwhere(~np.isclose(got, want))[0]
        print(f"{name}{list(bad)}: got {got[tuple(bad)]}, expected {want[tuple(bad)]}")
        return 1
    print("ok", name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
