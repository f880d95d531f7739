#!/usr/bin/env python3
"""Golden values of pl.cast's rounding modes, from numpy: cast_modes_golden.py DIR

Reads DIR/x.npy (float32) and ptodist's outputs DIR/ints.npy (int32: modes none, rint, round, floor,
ceil, trunc, one row each), DIR/halves.npy (float16: those and odd) and DIR/bhalves.npy (bfloat16 bit
patterns as uint16: the same seven), computes each independently and compares them exactly (NaN in
the same places). Exits 1 on the first mismatch.

int32: 'none' truncates (pto-isa's TCVT to an integer without a mode), NaN gives 0, the rest saturate.
float16: numpy's float32 -> float16 rounds to nearest even; the other modes pick one of the two
float16 neighbours (np.nextafter) of the exact value. bfloat16: integer arithmetic on the float32 bit
pattern (the top 16 bits are the neighbour toward zero, the low 16 bits say how far the value is past it).
"""
import os
import sys

import numpy as np

np.seterr(over="ignore", invalid="ignore")

d = sys.argv[1]
x32 = np.load(os.path.join(d, "x.npy"))
x32 = x32.reshape(x32.shape[0], -1)
x = x32.astype(np.float64)  # exact; clipping to the int32 range in float32 would round the bound
nan = np.isnan(x)


def lim(v):
    return np.where(nan, 0, np.clip(np.nan_to_num(v), -2.0**31, 2.0**31 - 1)).astype(np.int32)


away = np.sign(x) * np.floor(np.abs(x) + 0.5)  # ties away from zero
want_i = np.stack([lim(np.trunc(x)), lim(np.rint(x)), lim(away), lim(np.floor(x)), lim(np.ceil(x)),
                   lim(np.trunc(x))], axis=1)

n = x32.astype(np.float16)
exact = (n.astype(np.float64) == x) | nan
toward_zero = np.abs(n.astype(np.float64)) > np.abs(x)
lo = np.where(exact, n, np.where(toward_zero, np.nextafter(n, np.float16(0)), n))
hi = np.where(exact, n, np.nextafter(lo, np.copysign(np.float16(np.inf), x).astype(np.float16)))
hi_mag = np.where(np.isinf(hi), 65536.0, np.abs(hi.astype(np.float64)))
nearest_away = np.where(hi_mag - np.abs(x) <= np.abs(x) - np.abs(lo.astype(np.float64)), hi, lo)
odd = np.where(lo.view(np.uint16) & 1 == 1, lo, hi)
want_h = np.stack([n, n, nearest_away, np.where(x > 0, lo, hi), np.where(x > 0, hi, lo), lo, odd], axis=1)

bits = x32.view(np.uint32)
blo = (bits >> 16).astype(np.uint32)  # toward zero: sign-magnitude truncation
rem = bits & 0xFFFF
inexact = rem != 0
bhi = blo + inexact
neg = (bits >> 31) == 1
b_rint = np.where(rem > 0x8000, bhi, np.where(rem < 0x8000, blo, np.where(blo & 1 == 1, bhi, blo)))
b_round = np.where(rem >= 0x8000, bhi, blo)
b_floor = np.where(neg, bhi, blo)
b_ceil = np.where(neg, blo, bhi)
b_odd = blo | inexact
want_b = np.stack([b_rint, b_rint, b_round, b_floor, b_ceil, blo, b_odd], axis=1)
bnan = np.broadcast_to(nan[:, None, :], want_b.shape)
want_b = np.where(bnan, 0x7FC0, want_b).astype(np.uint16)  # float32 NaN's quiet pattern, top half


def check(name, want):
    got = np.load(os.path.join(d, name + ".npy"))
    if got.shape != want.shape:
        print(f"{name}: shape {got.shape}, expected {want.shape}")
        sys.exit(1)
    if got.dtype.kind == "f":
        bad = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    else:
        bad = got != want
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        print(f"{name}{list(i)}: got {got[i]!r}, expected {want[i]!r} (x = {x32[i[0], i[2]]!r})")
        sys.exit(1)
    print("ok", name)


check("ints", want_i)
check("halves", want_h.astype(np.float16))
check("bhalves", want_b)
