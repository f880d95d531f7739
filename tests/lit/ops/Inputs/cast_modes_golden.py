#!/usr/bin/env python3
"""Golden values of pl.cast's rounding modes, from numpy: cast_modes_golden.py DIR

Reads DIR/x.npy (float32) and writes DIR/want_i.npy (int32: modes none, rint, round, floor, ceil,
trunc, one row each) and DIR/want_h.npy (float16: those and odd). numpy's float32 -> float16 rounds to
nearest even; the other modes pick one of the two float16 neighbours (np.nextafter) of the exact value.
"""
import os
import sys

import numpy as np

np.seterr(over="ignore")

d = sys.argv[1]
x = np.load(os.path.join(d, "x.npy"))
ranks = x.shape[0]
x32 = x.reshape(ranks, -1)
x = x32.astype(np.float64)  # exact; clipping to the int32 range in float32 would round the bound

away = np.sign(x) * np.floor(np.abs(x) + 0.5)  # ties away from zero
lim = lambda v: np.clip(v, -2.0**31, 2.0**31 - 1).astype(np.int32)
want_i = np.stack([lim(np.rint(x)), lim(np.rint(x)), lim(away), lim(np.floor(x)), lim(np.ceil(x)),
                   lim(np.trunc(x))], axis=1)

n = x32.astype(np.float16)
exact = n.astype(np.float64) == x
toward_zero = np.abs(n.astype(np.float64)) > np.abs(x)
lo = np.where(exact, n, np.where(toward_zero, np.nextafter(n, np.float16(0)), n))
hi = np.where(exact, n, np.nextafter(lo, np.copysign(np.float16(np.inf), x).astype(np.float16)))
hi_mag = np.where(np.isinf(hi), 65536.0, np.abs(hi.astype(np.float64)))
nearest_away = np.where(hi_mag - np.abs(x) <= np.abs(x) - np.abs(lo.astype(np.float64)), hi, lo)
odd = np.where(lo.view(np.uint16) & 1 == 1, lo, hi)
want_h = np.stack([n, n, nearest_away, np.where(x > 0, lo, hi), np.where(x > 0, hi, lo), lo, odd], axis=1)
np.save(os.path.join(d, "want_i.npy"), want_i)
np.save(os.path.join(d, "want_h.npy"), want_h.astype(np.float16))
