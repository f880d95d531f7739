#!/usr/bin/env bash
# Run-time scalar semantics, host I/O and liveness from the command line: defined results compared with
# values computed by hand, located errors (exit 1, never a signal), one-line usage errors (exit 2),
# all-or-nothing outputs and the watchdog on a long scalar loop.
# Usage: scalar_runtime_test.sh <ptodist> <source-dir>
set -u
ptodist=$1
root=$2
source "$(dirname "$0")/expect.sh"
expect_err() {  # expect_err <pattern>: the last command's stderr has it
  grep -qF -- "$1" "$tmp/err" || { echo "FAIL: stderr lacks '$1':"; cat "$tmp/err"; fail=1; }
}
npy() {  # npy <path> <descr> <struct-format> <values...>: a [1, 1, N] array (one rank)
  python3 - "$@" <<'PY'
import struct, sys
path, descr, fmt, values = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
vals = [float(v) if fmt == "f" else int(v) for v in values]
h = "{'descr': '%s', 'fortran_order': False, 'shape': (1, 1, %d), }" % (descr, len(vals))
h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + struct.pack("<%d%s" % (len(vals), fmt), *vals))
PY
}
values() {  # values <path> <struct-format>: the elements, space-separated
  python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(); h = struct.unpack("<H", d[8:10])[0]; b = d[10 + h:]
print(" ".join(repr(v) for v in struct.unpack("<%d%s" % (len(b) // struct.calcsize(sys.argv[2]), sys.argv[2]), b)))' "$1" "$2"
}

prog=$root/tests/e2e/programs/scalar_semantics.py
npy "$tmp/x.npy" "<i8" q 0 5 -9223372036854775808 -1 100 2 9223372036854775807 7

# Defined results, by hand: `and`/`or` give an operand; INT64_MIN % -1 is 0; // floors; (-1) ** INT64_MAX
# is -1 at once; 5 / 2 = 2.5; (0 and 2.5) + 0.25 = 0.25; 1.5 if 0 else 5 = 5; -7.5 % 2 = 0.5 (Python).
expect 0 "defined scalar results" "$ptodist" run "$prog" --ranks 1 --in "x=$tmp/x.npy" --out-dir "$tmp/ok"
got=$(values "$tmp/ok/yi.npy" q)
want="0 2 5 5 0 -4611686018427387904 -1 -3"
[[ "$got" == "$want" ]] && echo "ok: integer results" || { echo "FAIL: integer results: got '$got', want '$want'"; fail=1; }
got=$(values "$tmp/ok/yf.npy" f)
want="2.5 0.25 5.0 0.5"
[[ "$got" == "$want" ]] && echo "ok: float results" || { echo "FAIL: float results: got '$got', want '$want'"; fail=1; }

# Each error: exit 1 (not a signal), located at its line.
check_case() {  # check_case <case> <line> <message>
  expect 1 "case $1: $3" timeout 20 "$ptodist" run "$prog" --ranks 1 --in "x=$tmp/x.npy" -D "case=$1"
  expect_err "scalar_semantics.py:$2:"
  expect_err "error: $3"
}
check_case 1 35 "integer overflow: -9223372036854775808 // -1 does not fit in 64 bits"
check_case 2 37 "integer power with a negative exponent (-1) at run time"
check_case 3 39 "integer overflow: 2 << 100 does not fit in 64 bits"
check_case 4 41 "integer overflow: 2 ** 9223372036854775807 does not fit in 64 bits"
check_case 5 43 "integer division by zero"
check_case 6 45 "integer overflow: 9223372036854775807 + 5 does not fit in 64 bits"
check_case 7 47 "integer overflow: -(-9223372036854775808) does not fit in 64 bits"

# A long scalar-only loop is progress: a 0.2 s watchdog does not call it a hang.
expect 0 "long scalar loop under a short watchdog" "$ptodist" run "$root/tests/e2e/programs/scalar_loop.py" --ranks 1 \
  --watchdog 0.2 --out-dir "$tmp/loop"
got=$(values "$tmp/loop/y.npy" q)
[[ "$got" == "2000000 0 0 0" ]] && echo "ok: loop count" || { echo "FAIL: loop count '$got'"; fail=1; }

# Outputs are all or nothing: with yf.npy unwritable (a directory), yi.npy is not left behind either.
mkdir -p "$tmp/partial/yf.npy"
expect 2 "an output that cannot be written" "$ptodist" run "$prog" --ranks 1 --in "x=$tmp/x.npy" --out-dir "$tmp/partial"
expect_err "yf.npy"
[[ ! -e "$tmp/partial/yi.npy" ]] && echo "ok: no partial outputs" || { echo "FAIL: yi.npy left behind"; fail=1; }
ls -A "$tmp/partial" | grep -q partial && { echo "FAIL: temporary files left behind"; fail=1; }

# Inputs: a device is read no further than the header needs; bad or repeated specs are usage errors.
expect 2 "--in from /dev/zero" timeout 10 "$ptodist" run "$prog" --ranks 1 --in x=/dev/zero
expect_err "/dev/zero: bad magic: not a .npy file"
expect 2 "rand:-1" "$ptodist" run "$prog" --ranks 1 --in x=rand:-1
expect_err "the seed of rand:SEED must be an integer from 0 to 2^64 - 1"
expect 2 "a repeated --in" "$ptodist" run "$prog" --ranks 1 --in x=zeros --in x=rand:1
expect_err "--in 'x' is given twice"
expect 2 "--out-dir ''" "$ptodist" run "$prog" --ranks 1 --out-dir ""
expect_err "--out-dir: the directory name is empty"
for w in 0 -1 nan inf abc; do
  expect 2 "--watchdog $w" "$ptodist" run "$prog" --ranks 1 --watchdog "$w"
  expect_err "--watchdog: expected seconds (a number > 0, at most 1e6) or 'off', got '$w'"
done
expect 0 "--watchdog off" "$ptodist" run "$prog" --ranks 1 --in "x=$tmp/x.npy" --watchdog off
expect 2 "--ranks 0" "$ptodist" run "$prog" --ranks 0
expect_err "expected a rank count from 1 to 4096, got '0'"
[[ $(wc -c <"$tmp/err") -lt 200 ]] || { echo "FAIL: --ranks 0 message is long"; fail=1; }

exit $fail
