# RUN: ptodist check %s --verify-diagnostics
# Lexer errors are reported everywhere, even inside code the parser skips.
import pypto.language as pl


def host_helper():
    # expected-error@+1 {{unterminated string}}
    return 'never closed


@pl.jit.incore
def kernel(x: pl.Tensor[[1, 8], pl.FP32]):
    # expected-error@+1 {{unexpected character '$'}}
    a = 1 $ 2
    if a:
        b = 1
      # expected-error@+1 {{unindent does not match any outer indentation level}}
      c = 2
    # expected-error@+1 {{invalid number literal '12ab'}}
    d = 12ab
