"""Prints a .npy file's shape and its values, one row of the last axis per line, for FileCheck.

The lit tests must not need numpy; float32, int32 and int64 arrays are enough for them.
"""
import array
import ast
import sys

CODES = {"<f4": "f", "<i4": "i", "<i8": "q"}


def main():
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    if raw[:6] != b"\x93NUMPY":
        sys.exit(f"{sys.argv[1]}: not a .npy file")
    hlen_bytes = 2 if raw[6] == 1 else 4
    hlen = int.from_bytes(raw[8:8 + hlen_bytes], "little")
    start = 8 + hlen_bytes + hlen
    header = ast.literal_eval(raw[8 + hlen_bytes:start].decode("latin1"))
    values = array.array(CODES[header["descr"]], raw[start:])
    shape = header["shape"]
    print("shape", list(shape))
    width = shape[-1] if shape else 1
    for i in range(0, len(values), width):
        print(" ".join(f"{v:g}" for v in values[i:i + width]))


main()
