"""Compares two .npy files: identical bytes, or (with --allclose) float32 data within rtol = atol = 1e-5.

Used by the MPI end-to-end tests, which must not need numpy.
"""
import ast
import array
import sys


def read_npy(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:6] != b"\x93NUMPY":
        sys.exit(f"{path}: not a .npy file")
    major = raw[6]
    hlen_bytes = 2 if major == 1 else 4
    hlen = int.from_bytes(raw[8:8 + hlen_bytes], "little")
    start = 8 + hlen_bytes + hlen
    header = ast.literal_eval(raw[8 + hlen_bytes:start].decode("latin1"))
    return header, raw[start:]


def main():
    allclose = "--allclose" in sys.argv
    a_path, b_path = [x for x in sys.argv[1:] if not x.startswith("--")]
    (ha, da), (hb, db) = read_npy(a_path), read_npy(b_path)
    if ha != hb:
        sys.exit(f"headers differ: {ha} vs {hb}")
    if da == db:
        print(f"{b_path}: identical to {a_path}")
        return
    if not allclose or ha["descr"] != "<f4":
        sys.exit(f"{b_path}: bytes differ from {a_path}")
    xa, xb = array.array("f", da), array.array("f", db)
    bad = [i for i, (x, y) in enumerate(zip(xa, xb)) if abs(x - y) > 1e-5 + 1e-5 * abs(x)]
    if bad:
        sys.exit(f"{b_path}: {len(bad)} of {len(xa)} elements differ beyond 1e-5 (first at {bad[0]})")
    print(f"{b_path}: allclose to {a_path}")


main()
