# RUN: ptodist check %s --verify-diagnostics
# Number literals as Python reads them: a decimal integer with leading zeros is a syntax error
# (Python 3 has no implicit octal); zeros alone, floats and prefixed literals are fine.
import pypto.language as pl

A = 0
B = 00
C = 007.5
D = 0o7
E = 0_0
# expected-error@+1 {{leading zeros in decimal integer literal '007' are not permitted (Python); use an 0o prefix for octal integers}}
F = 007
# expected-error@+1 {{leading zeros in decimal integer literal '0_1'}}
G = 0_1
# expected-error@+1 {{number literal '9223372036854775808' is out of range}}
H = 9223372036854775808
