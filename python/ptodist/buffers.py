"""Host tensors handed to the runtime in place: numpy arrays and CPU torch tensors.

A dense row-major buffer is passed by address, so the kernels read and write the caller's memory with
no copy; any other layout (a transposed view, a slice with strides) is copied into a dense buffer and,
for parameters the program writes, copied back after the run.
"""

import numpy as np

_NUMPY = {
    np.dtype(np.float32): "FP32",
    np.dtype(np.float16): "FP16",
    np.dtype(np.int32): "INT32",
    np.dtype(np.int16): "INT16",
    np.dtype(np.int8): "INT8",
    np.dtype(np.uint8): "UINT8",
    np.dtype(np.uint32): "UINT32",
    np.dtype(np.int64): "INT64",
    np.dtype(np.bool_): "BOOL",
}


def _torch():
    try:
        import torch  # noqa: PLC0415

        return torch
    except ImportError:
        return None


def _torch_names(torch):
    return {
        torch.float32: "FP32",
        torch.float16: "FP16",
        torch.bfloat16: "BF16",
        torch.int32: "INT32",
        torch.int16: "INT16",
        torch.int8: "INT8",
        torch.uint8: "UINT8",
        torch.int64: "INT64",
        torch.bool: "BOOL",
    }


def torch_dtype(name):
    """The torch dtype of a ptodist dtype name ("FP32")."""
    torch = _torch()
    for dt, n in _torch_names(torch).items():
        if n == _SAME_BITS.get(name, name):
            return dt
    raise ValueError(f"no torch dtype for {name}")


class Bound:
    """The buffers of one call: (address, dtype, shape) per parameter, and the copies to write back."""

    def __init__(self):
        self.descriptors = []
        self.copies = []  # (original, dense copy) of parameters passed through a copy
        self.keep = []  # objects whose memory the descriptors point into

    def write_back(self):
        for original, dense in self.copies:
            original[...] = dense


def _numpy_descriptor(arr, name, writes, bound):
    if arr.dtype not in _NUMPY:
        raise TypeError(f"parameter {name!r}: numpy dtype {arr.dtype} is not supported")
    dense = arr
    if not (arr.flags.c_contiguous and arr.flags.aligned):
        dense = np.ascontiguousarray(arr)
        if writes:
            bound.copies.append((arr, dense))
    if writes and not dense.flags.writeable:
        raise ValueError(f"parameter {name!r} is written by the program but the array is read-only")
    bound.keep.append(dense)
    return (dense.ctypes.data, _NUMPY[arr.dtype], list(arr.shape))


def _torch_descriptor(t, name, writes, bound, torch):
    if t.device.type != "cpu":
        raise TypeError(f"parameter {name!r}: tensor is on {t.device}; ptodist runs on CPU tensors")
    names = _torch_names(torch)
    if t.dtype not in names:
        raise TypeError(f"parameter {name!r}: torch dtype {t.dtype} is not supported")
    dense = t
    if not t.is_contiguous() or t.storage_offset() * t.element_size() % max(t.element_size(), 1):
        dense = t.contiguous()
        if writes:
            bound.copies.append((t, dense))
    bound.keep.append(dense)
    return (dense.data_ptr(), names[t.dtype], list(t.shape))


# Parameter dtypes torch has no tensors of, and the dtype of the same width PyPTO passes for them:
# pl.INDEX is a signed 64-bit integer; unsigned ints come as signed tensors of the same bits (PyPTO's
# harness maps UINT32 to torch.int32, UINT16 to torch.int16).
_SAME_BITS = {"INDEX": "INT64", "UINT32": "INT32", "UINT16": "INT16"}


def bind(values, params):
    """Descriptors for `values` against the program's host parameters (name, dtype, shape, direction)."""
    torch = _torch()
    bound = Bound()
    for value, (name, dtype, _shape, direction) in zip(values, params):
        writes = direction != "in"
        if hasattr(value, "host_tensor"):  # pypto's DeviceTensor: memory a prepared worker owns, by address
            value = value.host_tensor()
        if torch is not None and isinstance(value, torch.Tensor):
            d = _torch_descriptor(value, name, writes, bound, torch)
        elif isinstance(value, np.ndarray):
            d = _numpy_descriptor(value, name, writes, bound)
        else:
            raise TypeError(
                f"parameter {name!r}: expected a numpy array or a torch tensor, got {type(value).__name__}"
            )
        if _SAME_BITS.get(dtype) == d[1]:
            d = (d[0], dtype, d[2])
        bound.descriptors.append(d)
    return bound
